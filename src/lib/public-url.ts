import { env } from '@/config/env';

/** The project's API address, without a trailing slash. */
export const apiUrl = env.VITE_SUPABASE_URL.replace(/\/+$/, '');

/** An object's URL in a public bucket, as supabase-js's `storage.from(bucket).getPublicUrl(path)` makes it. */
export function publicObjectUrl(bucket: string, path: string): string {
  return encodeURI(`${apiUrl}/storage/v1/object/public/${bucket}/${path.replace(/^\/+/, '')}`);
}
