import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Trans, useTranslation } from 'react-i18next';
import {
  AlertTriangle,
  ExternalLink,
  FilePlus2,
  LockKeyhole,
  MessageSquareQuote,
  ShieldAlert,
  ShieldCheck,
  ShieldQuestion,
} from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { OwnerAnswerQuote, type OwnerAnswer } from '@/components/owner-answer';
import { paths } from '@/config/paths';
import { accountTypeLabel, formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import type { CheckedItem, CheckResult, Verdict } from '@/lib/check-message';
import { isSharedPlatformHost } from '../../../../supabase/functions/_shared/platform-hosts.ts';
import { reasonMessage, riskWord, signalLabel, signalMessage, verdictKeys } from './check-texts';

const verdictLook: Record<Verdict['level'], { icon: typeof ShieldAlert; className: string }> = {
  danger: { icon: ShieldAlert, className: 'border-destructive/60 text-destructive' },
  suspicious: { icon: AlertTriangle, className: 'border-amber-500/60 text-amber-700 dark:text-amber-400' },
  'no-known-risk': {
    icon: ShieldCheck,
    className: 'border-emerald-600/50 text-emerald-700 dark:text-emerald-400',
  },
  'nothing-found': { icon: ShieldQuestion, className: '' },
};

/** Numbers that are not mobiles (issue 30) are named as what they are. */
const phoneKindKeys = {
  landline: 'check.phoneKind.landline',
  freephone: 'check.phoneKind.freephone',
  international: 'check.phoneKind.international',
} as const;

const riskClass: Record<string, string> = {
  high: 'bg-destructive text-white',
  medium: 'bg-amber-500 text-black',
  low: 'bg-secondary text-secondary-foreground',
};

export function VerdictPanel({
  verdict,
  items,
  textSignals,
}: {
  verdict: Verdict;
  items: CheckResult['items'];
  textSignals?: CheckResult['textSignals'];
}) {
  const { t } = useTranslation();
  const look = verdictLook[verdict.level];
  const Icon = look.icon;
  // A strong signal decides the verdict and is listed alone as its reason; what the words say is still
  // shown, each rule with the words that triggered it (issue 30), so no text signal goes unmentioned.
  const listed = new Set(verdict.reasons.map((r) => r.code));
  const moreWords = (textSignals ?? []).filter((s) => !listed.has(s.code));
  return (
    <Alert className={cn('border-2', look.className)} aria-live="polite">
      <Icon aria-hidden />
      <AlertTitle className="text-lg">{t(verdictKeys[verdict.level].title)}</AlertTitle>
      <AlertDescription>
        <p className="text-foreground">{t(verdictKeys[verdict.level].summary)}</p>
        {verdict.reasons.length > 0 && (
          <>
            <p className="text-foreground mt-2 font-medium">{t('check.verdict.why')}</p>
            <ul className="text-foreground list-disc pl-5" data-testid="verdict-reasons">
              {verdict.reasons.map((r, i) => (
                <li key={i}>
                  <span className="font-mono break-all">{r.value}</span>:{' '}
                  {reasonMessage(t, r, items, textSignals)}
                </li>
              ))}
            </ul>
          </>
        )}
        {moreWords.length > 0 && (
          <>
            <p className="text-foreground mt-2 font-medium">{t('check.verdict.alsoWords')}</p>
            <ul className="text-foreground list-disc pl-5" data-testid="more-text-signals">
              {moreWords.map((s) => (
                <li key={s.code} data-signal={s.code}>
                  <span className="font-semibold">{signalLabel(t, s)}</span>:{' '}
                  <span className="break-words">{s.matched.map((w) => `"${w}"`).join(', ')}</span>
                </li>
              ))}
            </ul>
          </>
        )}
      </AlertDescription>
    </Alert>
  );
}

function ItemRow({
  item,
  sent,
  owners,
  onReport,
}: {
  item: CheckedItem;
  /** The hash prefix that was sent for this identifier (the private lookup), if any. */
  sent?: string;
  /** Its verified owners' answers (issue 32). */
  owners?: OwnerAnswer[];
  onReport: (item: CheckedItem) => void;
}) {
  const { t } = useTranslation();
  return (
    <li aria-label={t('check.item.label', { type: accountTypeLabel(item.type), value: item.canonical })}>
      <Card className="gap-3 py-4">
        <CardHeader className="px-4">
          <CardTitle className="flex flex-wrap items-center gap-2 text-base">
            <Badge variant="outline">
              {item.phoneKind && item.phoneKind !== 'mobile'
                ? t(phoneKindKeys[item.phoneKind])
                : accountTypeLabel(item.type)}
            </Badge>
            <span className="font-mono break-all">{item.canonical}</span>
          </CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-3 px-4 text-sm">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            <dt className="text-muted-foreground">{t('check.item.writtenAs')}</dt>
            <dd className="font-mono break-all">{item.forms.join(' · ')}</dd>
            <dt className="text-muted-foreground">{t('check.item.reports')}</dt>
            <dd>
              {item.count === 0 ? t('check.item.none') : formatNumber(item.count)}
              {item.count > 0 && (
                <Badge className={cn('ml-2', riskClass[item.riskLabel])}>
                  {t('check.item.risk', { label: riskWord(t, item.riskLabel), level: item.riskLevel })}
                </Badge>
              )}
            </dd>
            {sent && (
              <>
                <dt className="text-muted-foreground">{t('check.private.sentLabel')}</dt>
                <dd data-testid="sent-prefix">
                  <Trans
                    i18nKey="check.private.sentValue"
                    values={{ prefix: sent }}
                    components={{ code: <code className="font-mono" /> }}
                  />
                </dd>
              </>
            )}
          </dl>
          {/* Issue 32: the verified owner's answer, next to the reports and as plainly. */}
          {owners && owners.length > 0 && (
            <section
              aria-label={t('search.owner.title')}
              className="flex flex-col gap-2"
              data-testid="check-owner-answer"
            >
              <p className="flex items-center gap-2 font-semibold">
                <MessageSquareQuote className="text-primary size-4 shrink-0" aria-hidden />
                {t('search.owner.title')}
              </p>
              {owners.map((o) => (
                <OwnerAnswerQuote key={o.updatedAt} answer={o} large={false} />
              ))}
            </section>
          )}
          {item.signals.length > 0 && (
            <ul className="flex flex-col gap-2" aria-label={t('check.item.signals')}>
              {item.signals.map((s) => (
                <li key={s.code} data-signal={s.code} className="bg-muted/50 rounded-md border p-2">
                  <span
                    className={cn(
                      'font-semibold',
                      s.severity === 'high' ? 'text-destructive' : 'text-amber-700 dark:text-amber-400',
                    )}
                  >
                    {signalLabel(t, s)}
                  </span>
                  : {signalMessage(t, s, item)}
                </li>
              ))}
            </ul>
          )}
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline" size="sm">
              <Link to={paths.search.getHref(item.canonical)}>
                <ExternalLink aria-hidden />
                {t('check.item.allReports')}
              </Link>
            </Button>
            {/* A platform's own host (bit.ly, facebook.com) is no one's to report (issue 30). */}
            {!(item.type === 'website' && isSharedPlatformHost(item.canonical)) && (
              <Button size="sm" variant="secondary" onClick={() => onReport(item)}>
                <FilePlus2 aria-hidden />
                {t('check.item.report')}
              </Button>
            )}
          </div>
        </CardContent>
      </Card>
    </li>
  );
}

/** Says what the private range lookup sent, and links to how it works. */
function PrivateNote() {
  const { t } = useTranslation();
  return (
    <div className="bg-muted/40 flex gap-3 rounded-md border p-3 text-sm" data-testid="private-note">
      <LockKeyhole aria-hidden className="text-primary mt-0.5 size-4 shrink-0" />
      <p>
        <span className="font-semibold">{t('check.private.title')}</span>{' '}
        <Trans
          i18nKey="check.private.explained"
          components={{
            howto: (
              <Link to={paths.developers.getHref()} className="text-primary underline underline-offset-4" />
            ),
          }}
        />
      </p>
    </div>
  );
}

/** The verdict, then one row per identifier in the order they appear in the message. */
export function CheckResults({
  result,
  sent,
  owners,
  onReport,
  verdict,
}: {
  result: CheckResult;
  /** Shown instead of the verdict (an image that could not be read well gets no "all clear"). */
  verdict?: ReactNode;
  /** Per canonical identifier, the hash prefix the private lookup sent (all ScamCheck saw of it). */
  sent?: Map<string, string>;
  /** Per canonical identifier, its verified owners' answers (issue 32). */
  owners?: Map<string, OwnerAnswer[]>;
  onReport: (item: CheckedItem) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-6">
      {verdict ?? (
        <VerdictPanel verdict={result.verdict} items={result.items} textSignals={result.textSignals} />
      )}
      {result.items.length > 0 && (
        <section aria-labelledby="found-heading" className="flex flex-col gap-3">
          <h2 id="found-heading" className="text-xl font-semibold">
            {t('check.found', { count: result.items.length })}
          </h2>
          {sent && sent.size > 0 && <PrivateNote />}
          <ul className="flex flex-col gap-3">
            {result.items.map((item) => (
              <ItemRow
                key={`${item.type}:${item.canonical}:${item.valid}`}
                item={item}
                sent={sent?.get(item.canonical)}
                owners={owners?.get(item.canonical)}
                onReport={onReport}
              />
            ))}
          </ul>
        </section>
      )}
      <p className="text-muted-foreground text-sm">{t('check.disclaimer')}</p>
    </div>
  );
}
