import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { accountTypeLabel } from '@/lib/format';
import type { PublicStatistics } from '../api/get-public-statistics';

/**
 * The most-reported identifiers of the last 30 days (verified reports only). Phone numbers and
 * e-mails arrive masked; they link to their search through an opaque handle instead of their value.
 */
export function TopIdentifiers({ items }: { items: PublicStatistics['top_identifiers'] }) {
  if (items.length === 0) {
    return <p className="text-muted-foreground text-sm">No verified reports in the last 30 days yet.</p>;
  }
  return (
    <ol className="divide-y rounded-lg border" data-testid="top-identifiers">
      {items.map((t) => (
        <li key={t.ref} className="flex items-center gap-3 px-3 py-2 text-sm">
          <span className="text-muted-foreground w-6 text-right tabular-nums">{t.rank}.</span>
          <Link
            to={t.search ? paths.search.getHref(t.search) : paths.statisticsTop.getHref(t.ref)}
            className="text-primary min-w-0 flex-1 font-mono break-all underline-offset-4 hover:underline"
            aria-label={`${t.masked ? 'Partly hidden ' : ''}${accountTypeLabel(t.reported_account_type)} ${t.identifier}: search its reports`}
          >
            {t.identifier}
          </Link>
          <span className="text-muted-foreground hidden sm:inline">
            {accountTypeLabel(t.reported_account_type)}
          </span>
          <span className="tabular-nums">
            {t.verified_reports} <span className="text-muted-foreground">verified</span>
          </span>
        </li>
      ))}
    </ol>
  );
}
