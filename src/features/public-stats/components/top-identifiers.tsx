import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { accountTypeLabel, formatNumber } from '@/lib/format';
import type { PublicStatistics } from '../api/get-public-statistics';

/**
 * The most-reported identifiers of the last 30 days (verified reports only). Phone numbers and
 * e-mails arrive masked; they link to their search through an opaque handle instead of their value.
 */
export function TopIdentifiers({ items }: { items: PublicStatistics['top_identifiers'] }) {
  const { t } = useTranslation();
  if (items.length === 0) {
    return <p className="text-muted-foreground text-sm">{t('statistics.top.none')}</p>;
  }
  return (
    <ol className="divide-y rounded-lg border" data-testid="top-identifiers">
      {items.map((item) => (
        <li key={item.ref} className="flex items-center gap-3 px-3 py-2 text-sm">
          <span className="text-muted-foreground w-6 text-right tabular-nums">{item.rank}.</span>
          <Link
            to={item.search ? paths.search.getHref(item.search) : paths.statisticsTop.getHref(item.ref)}
            className="text-primary min-w-0 flex-1 font-mono break-all underline-offset-4 hover:underline"
            aria-label={t(item.masked ? 'statistics.top.linkMasked' : 'statistics.top.link', {
              type: accountTypeLabel(item.reported_account_type),
              identifier: item.identifier,
            })}
          >
            {item.identifier}
          </Link>
          <span className="text-muted-foreground hidden sm:inline">
            {accountTypeLabel(item.reported_account_type)}
          </span>
          <span className="tabular-nums">
            {formatNumber(item.verified_reports)}{' '}
            <span className="text-muted-foreground">{t('statistics.top.verified')}</span>
          </span>
        </li>
      ))}
    </ol>
  );
}
