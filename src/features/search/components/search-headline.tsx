import { OctagonAlert, ShieldQuestionMark, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import {
  headlineFacts,
  type HeadlineAnswer,
  type HeadlineKey,
  type HeadlineTone,
} from '@/lib/search-headline';
import { cn } from '@/lib/utils';
import { IdentifierText } from './identifier-text';

/** Colour by tone; the words carry the meaning, the colour and the icon repeat it. */
export const HEADLINE_TONE_CLASSES: Record<HeadlineTone, string> = {
  none: 'border-sky-700 bg-sky-50 text-sky-950 dark:border-sky-400 dark:bg-sky-950/50 dark:text-sky-50',
  pending:
    'border-amber-600 bg-amber-50 text-amber-950 dark:border-amber-400 dark:bg-amber-950/50 dark:text-amber-50',
  verified: 'border-red-700 bg-red-50 text-red-950 dark:border-red-400 dark:bg-red-950/50 dark:text-red-50',
};

const icons = { none: ShieldQuestionMark, pending: TriangleAlert, verified: OctagonAlert } as const;

const sentences: Record<HeadlineKey, ParseKeys> = {
  none: 'search.headline.none',
  pending: 'search.headline.pending',
  pendingLatest: 'search.headline.pendingLatest',
  verified: 'search.headline.verified',
  verifiedAtLeast: 'search.headline.verifiedAtLeast',
};

/**
 * The results page's answer in one line (issue 37), first on the page: "Reported 47 times, 31 verified:
 * do not send money or share codes", "Reported 3 times, not yet reviewed", "Nobody has reported this
 * yet — that does not make it safe". Built from the same facts as the verdict (src/lib/search-headline.ts).
 * It is the page's second heading, so a screen reader lands on it after the page title; the searched
 * value follows it.
 *
 * index.html's results shell (src/boot/page-shell.ts) paints this same markup from the early search
 * answer before the app's code runs: keep `data-headline` and `data-headline-text` in step with it.
 */
export function SearchHeadline({ answer, searchString }: { answer: HeadlineAnswer; searchString: string }) {
  const { t } = useTranslation();
  const facts = headlineFacts(answer);
  const Icon = icons[facts.tone];
  return (
    <section
      aria-labelledby="search-headline"
      data-headline={facts.tone}
      className={cn('flex gap-3 rounded-xl border-l-8 p-4 sm:p-5', HEADLINE_TONE_CLASSES[facts.tone])}
    >
      <Icon className="mt-1 size-7 shrink-0 sm:size-8" aria-hidden />
      {/* The container a long wallet address is scaled to (IdentifierText). */}
      <div className="@container flex min-w-0 flex-1 flex-col gap-1">
        <h2 id="search-headline" data-headline-text className="text-2xl leading-tight font-bold sm:text-3xl">
          {t(sentences[facts.key], {
            count: facts.count,
            verified: facts.verified,
            shown: facts.shown,
          })}
        </h2>
        <p className="text-base opacity-90">
          {t('search.headline.searched')}{' '}
          <strong data-headline-term>
            <IdentifierText value={searchString} />
          </strong>
        </p>
      </div>
    </section>
  );
}
