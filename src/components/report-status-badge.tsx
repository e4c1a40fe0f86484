import { BadgeCheck, Ban, Clock } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

/**
 * A report's status as a badge, for the public search (which only ever answers 'verified' or
 * 'not-verified', docs/behaviour.md) and for a reporter's and an admin's own lists. A reporter also
 * needs to know when an admin rejected or removed their report, so those states get their own badge
 * instead of hiding as 'not-verified'; 'pending' and anything else show as 'not-verified'. Icon and
 * words carry the meaning, so colour is not the only cue.
 */
export function ReportStatusBadge({
  status,
  className,
}: {
  status: string | null | undefined;
  className?: string;
}) {
  const { t } = useTranslation();
  if (status === 'verified') {
    return (
      <Badge
        variant="outline"
        className={cn('border-success/40 bg-success/10 text-green-800 dark:text-green-300', className)}
      >
        <BadgeCheck aria-hidden />
        {t('reports.status.verified')}
      </Badge>
    );
  }
  if (status === 'rejected' || status === 'removed') {
    return (
      <Badge
        variant="outline"
        className={cn('border-destructive/40 bg-destructive/10 text-destructive', className)}
      >
        <Ban aria-hidden />
        {status === 'rejected' ? t('reports.status.rejected') : t('reports.status.removed')}
      </Badge>
    );
  }
  return (
    <Badge
      variant="outline"
      className={cn('border-warning/50 bg-warning/10 text-amber-800 dark:text-amber-300', className)}
    >
      <Clock aria-hidden />
      {t('reports.status.notVerified')}
    </Badge>
  );
}
