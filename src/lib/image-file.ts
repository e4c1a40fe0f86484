import { z } from 'zod';

/** SPEC.md sections 5 and 9: evidence, avatars and news banners are images of at most 500000 bytes. */
export const MAX_IMAGE_BYTES = 500_000;
export const IMAGE_TOO_LARGE = 'Image size too large';
/** The types the storage buckets accept (supabase/migrations/*_storage_buckets.sql). */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export const IMAGE_ACCEPT = IMAGE_TYPES.join(',');

/**
 * An optional image upload as a form field. The size is checked first so an oversize file always
 * shows 'Image size too large'; the buckets enforce the same limits on the server.
 */
export const optionalImageFile = z
  .instanceof(File)
  .refine((file) => file.size <= MAX_IMAGE_BYTES, IMAGE_TOO_LARGE)
  .refine((file) => (IMAGE_TYPES as readonly string[]).includes(file.type), 'Only JPEG, PNG, WebP or GIF images can be uploaded')
  .optional();

const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif' };

/**
 * A fresh object path '<userId>/<uuid>.<ext>': the buckets' policies allow writes only under the
 * caller's own folder, and a new name per upload means browsers never show a cached old image.
 */
export function newImagePath(folder: string, file: File): string {
  return `${folder}/${crypto.randomUUID()}.${EXTENSIONS[file.type] ?? 'img'}`;
}
