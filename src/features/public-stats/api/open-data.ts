import { env } from '@/config/env';

/** The public Storage bucket the `open-data` scheduled function writes into. */
export const OPEN_DATA_BUCKET = 'open-data';

/** Stable addresses of the daily export (last 365 days), rewritten in place by every run. */
export const openDataFiles = {
  csv: `${env.VITE_SUPABASE_URL}/storage/v1/object/public/${OPEN_DATA_BUCKET}/reports-daily.csv`,
  json: `${env.VITE_SUPABASE_URL}/storage/v1/object/public/${OPEN_DATA_BUCKET}/reports-daily.json`,
};
