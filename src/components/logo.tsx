import { ShieldCheck } from 'lucide-react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';

/** The wordmark; it always links to the site root (SPEC.md section 2). */
export function Logo({ className }: { className?: string }) {
  return (
    <Link to={paths.home.getHref()} className={cn('flex items-center gap-2 text-lg font-bold tracking-tight', className)}>
      <ShieldCheck className="text-primary size-6" aria-hidden />
      <span>
        Scam<span className="text-primary">Check</span>
      </span>
    </Link>
  );
}
