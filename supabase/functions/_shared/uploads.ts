/**
 * The one way an image reaches a bucket. Storage policies give users no INSERT or UPDATE on the image
 * buckets (migration ..._images_through_function.sql), so a file a client sends straight to Storage
 * is refused on the local stack and on hosted Supabase alike; the legacy API and the app's
 * `upload-image` function check the caller's right to the bucket, then call storeImage, which cleans
 * the file (image.ts) and writes it with the service role under a name it chooses.
 */
import { HttpError } from './http.ts';
import { objectName, safeImage, type SafeImage } from './image.ts';
import { serviceClient } from './service.ts';

/** The image buckets and the label their messages use. */
export const IMAGE_BUCKETS = {
  avatars: 'Avatar',
  evidence: 'Evidence',
  'news-banners': 'News banner',
} as const;
export type ImageBucket = keyof typeof IMAGE_BUCKETS;

export function isImageBucket(value: unknown): value is ImageBucket {
  return typeof value === 'string' && Object.hasOwn(IMAGE_BUCKETS, value);
}

/**
 * Cleans `file` (400 with a message for anything that is not a clean image within the limits) and
 * stores it as `<folder>/<uuid>.<ext>` with the type its bytes have; returns the object path.
 * The caller must have checked that the requester may write to `folder` of `bucket`.
 */
export async function storeImage(bucket: ImageBucket, folder: string, file: Blob): Promise<string> {
  return storeSafeImage(bucket, folder, await safeImage(file, IMAGE_BUCKETS[bucket]));
}

/** Stores an image safeImage already cleaned (for callers that check it before other work). */
export async function storeSafeImage(bucket: ImageBucket, folder: string, image: SafeImage): Promise<string> {
  const path = objectName(folder, image.type);
  const { error } = await serviceClient()
    .storage.from(bucket)
    .upload(path, image.bytes, { contentType: image.type.mime, upsert: false });
  if (error) {
    console.error(`storing ${bucket}/${path} failed`, error);
    throw new HttpError(
      502,
      `Could not store the ${IMAGE_BUCKETS[bucket].toLowerCase()} right now, please try again`,
    );
  }
  return path;
}
