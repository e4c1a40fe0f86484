import { BadgeCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@/lib/format';

/** One verified owner's answer (issue 32), as the results page and the message check show it. */
export interface OwnerAnswer {
  statement: string;
  updatedAt: string;
  verifiedBy: 'sms' | 'email' | 'dns' | 'wellknown' | 'bio' | 'review';
}

const verifiedByKeys = {
  sms: 'search.owner.verifiedBy.sms',
  email: 'search.owner.verifiedBy.email',
  dns: 'search.owner.verifiedBy.dns',
  wellknown: 'search.owner.verifiedBy.wellknown',
  bio: 'search.owner.verifiedBy.bio',
  review: 'search.owner.verifiedBy.review',
} as const;

/** The owner's words as text only, with how ownership was proved and when they answered. */
export function OwnerAnswerQuote({ answer, large = true }: { answer: OwnerAnswer; large?: boolean }) {
  const { t } = useTranslation();
  return (
    <figure className="bg-muted/40 rounded-lg border p-4">
      <blockquote
        className={large ? 'text-lg break-words whitespace-pre-line' : 'break-words whitespace-pre-line'}
      >
        {answer.statement}
      </blockquote>
      <figcaption className="text-muted-foreground mt-3 flex flex-col gap-1 text-sm sm:flex-row sm:gap-4">
        <span className="flex items-center gap-1 font-medium text-green-700 dark:text-green-400">
          <BadgeCheck className="size-4 shrink-0" aria-hidden />
          {t(verifiedByKeys[answer.verifiedBy])}
        </span>
        <span>{t('search.owner.answered', { date: formatDate(answer.updatedAt) })}</span>
      </figcaption>
    </figure>
  );
}
