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
 * Who an upload is for: the user whose limits it spends, and their X-Forwarded-For, so the address
 * limits count the person, not the function.
 */
export interface Uploader {
  userId: string;
  forwardedFor: string | null;
}

/**
 * Spends one upload of `bytes` from the uploader's hourly limits, per account and per address, on the
 * count and on the bytes (public.upload_take, limits upload.* and upload_kib.*): 429 with Retry-After
 * past any of them. Called before the file is decoded, so a flood costs no decoding either.
 */
export async function takeUpload(uploader: Uploader, bytes: number): Promise<UploadTaken> {
  const { data, error } = await serviceClient(uploader.forwardedFor).rpc('upload_take', {
    p_user: uploader.userId,
    p_bytes: bytes,
  });
  if (error) {
    console.error('upload_take failed', error);
    throw new HttpError(502, 'Could not check your upload limit right now, please try again', {
      code: 'unavailable',
    });
  }
  const state = data as { ok: boolean; message?: string; limit?: string; retry_after?: number };
  if (!state.ok) {
    const retryAfter = state.retry_after ?? 3600;
    throw new HttpError(
      429,
      `${state.message ?? 'Too many uploads'}; try again in ${Math.ceil(retryAfter / 60)} minutes`,
      { retryAfter, code: 'rate_limited', params: { limit: state.limit, retry_after: retryAfter } },
      { 'Retry-After': String(retryAfter) },
    );
  }
  return { taken: true } as UploadTaken;
}

/** Proof that an upload was spent from its uploader's limits (takeUpload), which storeSafeImage needs. */
export type UploadTaken = { readonly taken: true } & { readonly __brand: 'UploadTaken' };

/**
 * Spends the upload from the uploader's limits (takeUpload), cleans `file` (400 with a message for
 * anything that is not a clean image within the limits) and stores it as `<folder>/<uuid>.<ext>` with
 * the type its bytes have; returns the object path. The caller must have checked that the requester
 * may write to `folder` of `bucket`.
 */
export async function storeImage(
  bucket: ImageBucket,
  folder: string,
  file: Blob,
  uploader: Uploader,
): Promise<string> {
  await takeUpload(uploader, file.size);
  return writeImage(bucket, folder, await safeImage(file, IMAGE_BUCKETS[bucket]));
}

/**
 * Stores an image safeImage already cleaned (for callers that check it before other work). The caller
 * spent the upload with takeUpload before decoding the file, and shows it.
 */
export function storeSafeImage(
  bucket: ImageBucket,
  folder: string,
  image: SafeImage,
  _taken: UploadTaken,
): Promise<string> {
  return writeImage(bucket, folder, image);
}

async function writeImage(bucket: ImageBucket, folder: string, image: SafeImage): Promise<string> {
  const path = objectName(folder, image.type);
  const { error } = await serviceClient()
    .storage.from(bucket)
    .upload(path, image.bytes, { contentType: image.type.mime, upsert: false });
  if (error) {
    console.error(`storing ${bucket}/${path} failed`, error);
    throw new HttpError(
      502,
      `Could not store the ${IMAGE_BUCKETS[bucket].toLowerCase()} right now, please try again`,
      { code: 'unavailable' },
    );
  }
  return path;
}
