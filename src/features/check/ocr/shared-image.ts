/**
 * An image shared to the installed app (the Web Share Target posts it; public/sw.js keeps it in this
 * cache under this key and opens /check?shared=image). The page takes it once: reading removes it.
 */
export const SHARE_CACHE = 'scamcheck-share';
export const SHARED_IMAGE_KEY = '/share/image';

export async function takeSharedImage(): Promise<Blob | undefined> {
  if (typeof caches === 'undefined') return undefined;
  const cache = await caches.open(SHARE_CACHE);
  const hit = await cache.match(SHARED_IMAGE_KEY);
  if (!hit) return undefined;
  const blob = await hit.blob();
  await cache.delete(SHARED_IMAGE_KEY);
  return blob;
}
