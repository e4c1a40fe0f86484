/**
 * The daily open-data export's two files. The schema and the licence are documented here, in the JSON
 * file itself, on /statistics and in docs/open-data.md; keep them in step.
 */
import type { Database } from '../_shared/database.ts';

export const EXPORT_DAYS = 365;
export const LICENCE =
  'Creative Commons Attribution 4.0 International (CC BY 4.0): https://creativecommons.org/licenses/by/4.0/ - credit "ScamCheck"';

/** One row of public.open_data_daily: a day, kind and status with its count and amount. */
export type ExportRow = Database['public']['Functions']['open_data_daily']['Returns'][number];

export const COLUMNS = [
  { name: 'date', type: 'string (YYYY-MM-DD)', description: 'UTC day on which the reports were filed' },
  { name: 'incident_type', type: 'string', description: 'scam, hacked or spam' },
  { name: 'reported_account_type', type: 'string', description: 'mobile, email, ewallet, crypto or website' },
  {
    name: 'status',
    type: 'string',
    description: 'verified (checked by a moderator) or pending (not reviewed yet)',
  },
  { name: 'reports', type: 'integer', description: 'number of reports' },
  {
    name: 'amount_lost_php',
    type: 'number or empty',
    description:
      'sum of the amounts reported lost, in Philippine pesos, of verified reports only; empty unless at least 5 verified reports of the row gave an amount',
  },
] as const;

/** RFC 4180: fields with a comma, quote or line break are quoted, quotes doubled. */
function csvField(v: unknown): string {
  const s = String(v ?? '');
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function buildExport(rows: ExportRow[], now: Date): { name: string; type: string; body: string }[] {
  const clean = rows.map((r) => ({
    date: r.date,
    incident_type: r.incident_type,
    reported_account_type: r.reported_account_type,
    status: r.status,
    reports: Number(r.reports),
    amount_lost_php: r.amount_lost_php == null ? null : Number(r.amount_lost_php),
  }));
  const to = now.toISOString().slice(0, 10);
  const from = new Date(now.getTime() - (EXPORT_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  const csv =
    [
      COLUMNS.map((c) => c.name).join(','),
      ...clean.map((r) => COLUMNS.map((c) => csvField(r[c.name])).join(',')),
    ].join('\r\n') + '\r\n';
  const doc = {
    title: 'ScamCheck reports per day',
    description:
      'Reports filed with ScamCheck per UTC day, incident type, account type and status (rejected and removed reports excluded), with the amounts reported lost. Days and combinations without reports are left out.',
    licence: LICENCE,
    generated_at: now.toISOString(),
    from,
    to,
    schema: { fields: COLUMNS },
    rows: clean,
  };
  return [
    { name: 'reports-daily.csv', type: 'text/csv', body: csv },
    { name: 'reports-daily.json', type: 'application/json', body: JSON.stringify(doc) },
  ];
}

/**
 * The published moderation figures (issue 31; public.moderation_statistics, from the moderation log's
 * rollup, counts under 5 withheld as null) as an open-data file beside the reports.
 */
export function buildModerationExport(
  figures: unknown,
  now: Date,
): { name: string; type: string; body: string } {
  const doc = {
    title: 'ScamCheck moderation figures',
    description:
      'How moderation performs, for the last 30 days and all time: decisions, verified/rejected/removed counts, the median and 90th-percentile whole hours from filing to first decision; removal requests received and their outcomes; the backlog of pending reports and the oldest one. Counts under 5 are null (withheld). Computed from the append-only moderation log; an undone decision is not counted.',
    licence: LICENCE,
    generated_at: now.toISOString(),
    figures,
  };
  return { name: 'moderation.json', type: 'application/json', body: JSON.stringify(doc) };
}
