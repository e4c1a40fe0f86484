import { BadgeCheck, Clock } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

/**
 * 'verified' or 'not-verified' with distinct styles (SPEC.md section 4); the icon and words carry
 * the meaning, so colour is not the only cue.
 */
export function ReportStatusBadge({
  status,
  className,
}: {
  status: string | null | undefined;
  className?: string;
}) {
  const verified = !!status && status !== 'not-verified' && status !== 'pending';
  return (
    <Badge
      variant="outline"
      className={cn(
        verified
          ? 'border-success/40 bg-success/10 text-green-800 dark:text-green-300'
          : 'border-warning/50 bg-warning/10 text-amber-800 dark:text-amber-300',
        className,
      )}
    >
      {verified ? <BadgeCheck aria-hidden /> : <Clock aria-hidden />}
      {verified ? 'verified' : 'not-verified'}
    </Badge>
  );
}
