import { ShieldCheck } from 'lucide-react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';

/**
 * The wordmark; it always links to the site root (docs/behaviour.md §2). `compact` shows only the shield
 * below 640px (the name stays for screen readers), to leave the dashboard's top bar room for the greeting.
 */
export function Logo({ className, compact = false }: { className?: string; compact?: boolean }) {
  return (
    <Link
      to={paths.home.getHref()}
      className={cn('flex items-center gap-2 text-lg font-bold tracking-tight', className)}
    >
      <ShieldCheck className="text-primary size-6" aria-hidden />
      <span className={compact ? 'sr-only sm:not-sr-only' : undefined}>
        Scam<span className="text-primary">Check</span>
      </span>
    </Link>
  );
}
