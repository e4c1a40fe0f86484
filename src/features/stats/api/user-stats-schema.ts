/**
 * The JSON that public.user_report_stats returns (jsonb: the generated types say only `Json`):
 * defaultStats {scam, hacked, spam} and monthlyApplications [{date YYYY-MM, count}]. Checked by a
 * database test against the real answer; relative imports only, so the Node tests can import it.
 */
import { z } from 'zod';

export const userStatsSchema = z.object({
  defaultStats: z.object({ scam: z.number().int(), hacked: z.number().int(), spam: z.number().int() }),
  monthlyApplications: z.array(
    z.object({ date: z.string().regex(/^\d{4}-\d{2}$/), count: z.number().int() }),
  ),
});
export type UserStats = z.infer<typeof userStatsSchema>;
