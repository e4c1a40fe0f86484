/**
 * Time axes that show every period. A chart fed only the periods that have data draws Dec 2025 next
 * to Feb 2026 and reads as a steady trend where there was none; these helpers list every month or
 * ISO week (Monday start, UTC) between two dates and put zero where nothing was counted.
 */
export type PeriodUnit = 'month' | 'week';

/** The first day (UTC) of the period that holds `date`, as YYYY-MM-DD. */
export function periodStart(date: Date, unit: PeriodUnit): string {
  const d = new Date(
    Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), unit === 'month' ? 1 : date.getUTCDate()),
  );
  if (unit === 'week') d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/** Every period start from the period of `from` to the period of `to`, inclusive, oldest first. */
export function periodsBetween(from: Date, to: Date, unit: PeriodUnit): string[] {
  const out: string[] = [];
  const end = periodStart(to, unit);
  let cur = new Date(`${periodStart(from, unit)}T00:00:00Z`);
  // At most 1000 periods (83 years of months): a bad date never loops for long.
  while (out.length < 1000) {
    const key = cur.toISOString().slice(0, 10);
    if (key > end) break;
    out.push(key);
    if (unit === 'month') cur = new Date(Date.UTC(cur.getUTCFullYear(), cur.getUTCMonth() + 1, 1));
    else cur = new Date(cur.getTime() + 7 * 86_400_000);
  }
  return out;
}

/**
 * Rows for every period between from and to: each period's row from `rows` (matched on `key`, a
 * YYYY-MM-DD or YYYY-MM period start), or `empty(period)` where it has none.
 */
export function fillPeriods<T>(
  rows: readonly T[],
  options: { key: (row: T) => string; from: Date; to: Date; unit: PeriodUnit; empty: (period: string) => T },
): T[] {
  const byPeriod = new Map<string, T>();
  for (const row of rows) {
    const k = options.key(row);
    byPeriod.set(k.length === 7 ? `${k}-01` : k, row);
  }
  return periodsBetween(options.from, options.to, options.unit).map(
    (p) => byPeriod.get(p) ?? options.empty(p),
  );
}
