import { FunctionsHttpError } from '@supabase/supabase-js';
import { z } from 'zod';
import { functionCallError } from '@/lib/functions';
import { supabase } from '@/lib/supabase';
import { i18n } from '@/i18n';

/** docs/behaviour.md §5 and §9: evidence, avatars and news banners are images of at most 500000 bytes. */
export const MAX_IMAGE_BYTES = 500_000;
/** The types the storage buckets accept (supabase/migrations/*_storage_buckets.sql). */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export const IMAGE_ACCEPT = IMAGE_TYPES.join(',');
/**
 * What the file pickers offer: the stored types plus others browsers decode, which the app re-encodes
 * before sending (lib/image-shrink.ts). HEIC is left out on purpose: iOS hands a picker that does not
 * list it a JPEG of the photo; a HEIC chosen anyway is decoded where the browser can, else refused.
 */
export const IMAGE_PICK_ACCEPT = `${IMAGE_ACCEPT},image/avif,image/bmp`;

/**
 * Files the device could not read or shrink (components/image-file-input.tsx), with the message the
 * user was shown. Such a file stays in its field so that the form is not sent without the image the
 * user meant to attach; imageFile refuses it with the same message until another is picked.
 */
export const refusedImages = new WeakMap<File, string>();

/**
 * An optional image upload as a form field. A file the device refused keeps its message; then the
 * size is checked so an oversize file always shows `image.tooLarge` (in the reader's language:
 * the message is made when the file is checked); the buckets enforce the same limits on the server.
 */
export const imageFile = z
  .instanceof(File)
  .refine((file) => !refusedImages.has(file), {
    error: (issue) => refusedImages.get(issue.input as File) ?? i18n.t('image.unreadable'),
  })
  .refine((file) => file.size <= MAX_IMAGE_BYTES, { error: () => i18n.t('image.tooLarge') })
  .refine((file) => (IMAGE_TYPES as readonly string[]).includes(file.type), {
    error: () => i18n.t('image.wrongType'),
  });
export const optionalImageFile = imageFile.optional();

/** The image buckets; users cannot write to them directly, uploads go through the upload-image function. */
export type ImageBucket = 'avatars' | 'evidence' | 'news-banners';

/**
 * Uploads an image through the `upload-image` edge function, which checks its bytes and pixel count,
 * strips it to its pixels and stores it under the caller's folder with a fresh name (a new name per
 * upload also means browsers never show a cached old image). Returns the stored path; a refusal
 * throws a FunctionCallError with the function's code (for example `image_not_image`).
 */
export async function uploadImage(bucket: ImageBucket, file: File): Promise<string> {
  const body = new FormData();
  body.append('bucket', bucket);
  body.append('file', file);
  const { data, error } = await supabase.functions.invoke<{ path: string }>('upload-image', { body });
  if (error) {
    throw error instanceof FunctionsHttpError ? await functionCallError(error.context as Response) : error;
  }
  if (!data?.path) throw new Error('The upload did not return a path');
  return data.path;
}
