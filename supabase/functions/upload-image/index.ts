/**
 * The app's image upload (profile avatar, report evidence, news banner):
 * `supabase.functions.invoke('upload-image', { body: formData })` with `bucket` and `file`. The file
 * is checked by its bytes, limited in pixels, cleaned to its pixels and stored under the caller's
 * folder with a server-chosen name (see _shared/uploads.ts); the answer is `{ bucket, path }`, which
 * the form then saves in its row (profiles.avatar_path, reports.evidence_path, news.banner_path).
 * Signed-in users only; news banners for admins only.
 */
import { preflight } from '../_shared/cors.ts';
import { fileField, readFields } from '../_shared/body.ts';
import { HttpError, json, toErrorResponse } from '../_shared/http.ts';
import { clientFor, isAdmin, requireUser } from '../_shared/supabase.ts';
import { IMAGE_BUCKETS, isImageBucket, storeImage } from '../_shared/uploads.ts';

Deno.serve(async (req) => {
  const early = preflight(req);
  if (early) return early;
  try {
    if (req.method !== 'POST')
      throw new HttpError(405, 'Use POST with multipart/form-data to upload an image');
    const caller = await requireUser(req);
    const fields = await readFields(req);
    if (!isImageBucket(fields.bucket)) {
      throw new HttpError(400, `bucket must be one of ${Object.keys(IMAGE_BUCKETS).join(', ')}`);
    }
    const bucket = fields.bucket;
    const file = fileField(fields, 'file');
    if (!file) throw new HttpError(400, 'Choose an image to upload', { code: 'image_missing' });
    if (bucket === 'news-banners') {
      if (!(await isAdmin(clientFor(caller), caller.user.id)))
        throw new HttpError(403, 'Only admins can upload news banners', { code: 'banner_admin_only' });
    }
    const path = await storeImage(bucket, caller.user.id, file, {
      userId: caller.user.id,
      forwardedFor: req.headers.get('x-forwarded-for'),
    });
    return json({ bucket, path }, 201);
  } catch (e) {
    return toErrorResponse(e);
  }
});
