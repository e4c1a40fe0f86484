import { BadgeCheck, Ban, Clock } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import type { ReportStatus } from '../api/types';

/**
 * SPEC.md section 4 shows 'verified' or 'not-verified'. A reporter also needs to know when an admin
 * rejected or removed their report, so those states get their own badge instead of hiding as
 * 'not-verified'. Icon and words carry the meaning, so colour is not the only cue.
 */
export function ReportStatusBadge({
  status,
  className,
}: {
  status: ReportStatus | 'not-verified';
  className?: string;
}) {
  if (status === 'verified') {
    return (
      <Badge
        variant="outline"
        className={cn('border-success/40 bg-success/10 text-green-800 dark:text-green-300', className)}
      >
        <BadgeCheck aria-hidden />
        verified
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
        {status}
      </Badge>
    );
  }
  return (
    <Badge
      variant="outline"
      className={cn('border-warning/50 bg-warning/10 text-amber-800 dark:text-amber-300', className)}
    >
      <Clock aria-hidden />
      not-verified
    </Badge>
  );
}
