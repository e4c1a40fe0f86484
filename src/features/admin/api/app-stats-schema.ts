/**
 * The JSON that public.admin_app_stats returns (jsonb: the generated types say only `Json`): the
 * site counters, each null until its rollup has a row. Checked by a database test against the real
 * answer; relative imports only, so the Node tests can import it.
 */
import { z } from 'zod';

const counter = z
  .number()
  .int()
  .nullable()
  .transform((n) => n ?? 0);

export const appStatsSchema = z.object({
  contact: counter,
  verifiedReports: counter,
  users: counter,
  reports: counter,
  search: counter,
  visitor: counter,
});
