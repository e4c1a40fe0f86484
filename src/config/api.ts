import { env } from '@/config/env';

/** Where programs call the API: the `api` edge function (the app also forwards {app}/api/v1 to it). */
export const API_BASE = `${env.VITE_SUPABASE_URL}/functions/v1/api/v1`;
