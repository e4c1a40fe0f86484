/**
 * Supabase Storage's image transformations (`/render/image/public|authenticated|sign/...`, and
 * `transform` on signed URLs), served only when config.toml says `[storage.image_transformation]
 * enabled = true`, as the Supabase CLI does; otherwise these routes do not exist. Storage has imgproxy
 * do the work; here sharp does, with imgproxy's meaning of each option as Storage maps them:
 * - width and height (clamped to 1..2500, Supabase's documented limits); an image is never enlarged;
 * - resize `cover` (the default: fill the box, cropping the centre), `contain` (fit inside), `fill`
 *   (stretch to exactly the box);
 * - quality 20..100 (imgproxy's default 80);
 * - format `origin` keeps the stored format; `webp` or `avif` convert; with no format the answer is
 *   WebP when the request accepts it, as Supabase's automatic WebP does.
 * Sources over 25 MB or 50 megapixels (Supabase's limits) are refused before any pixel is decoded:
 * sharp reads the dimensions from the header and stops there, so a small file announcing a huge image
 * (a decompression bomb) never allocates it, as the app's own image checks do.
 */
import sharp, { type Metadata } from 'sharp';
import { objectMetadataHeaders, type ResponseRequest, type StorageContext } from './context.ts';
import { ERRORS, StorageError } from './errors.ts';

export interface TransformOptions {
  width?: number;
  height?: number;
  resize?: 'cover' | 'contain' | 'fill';
  format?: 'origin' | 'avif' | 'webp';
  quality?: number;
}

const SIZE = { min: 1, max: 2500 };
const MAX_SOURCE_BYTES = 25 * 1024 * 1024;
const MAX_SOURCE_PIXELS = 50_000_000;
const DEFAULT_QUALITY = 80;

const RESIZES = ['cover', 'contain', 'fill'];
const FORMATS = ['origin', 'avif', 'webp'];

/** The query string's options, checked as Storage's route schema checks them (ajv's messages). */
export function transformFromQuery(query: URLSearchParams): TransformOptions {
  const out: TransformOptions = {};
  const integer = (name: 'width' | 'height' | 'quality', min: number, max?: number) => {
    const raw = query.get(name);
    if (raw === null) return;
    if (!/^-?\d+$/.test(raw.trim())) throw ERRORS.validation(`querystring/${name} must be integer`);
    const n = Number(raw);
    if (n < min) throw ERRORS.validation(`querystring/${name} must be >= ${min}`);
    if (max !== undefined && n > max) throw ERRORS.validation(`querystring/${name} must be <= ${max}`);
    out[name] = n;
  };
  integer('width', 0);
  integer('height', 0);
  integer('quality', 20, 100);
  const choice = <T extends string>(name: 'resize' | 'format', allowed: string[]) => {
    const raw = query.get(name);
    if (raw === null) return;
    if (!allowed.includes(raw))
      throw ERRORS.validation(`querystring/${name} must be equal to one of the allowed values`);
    (out as Record<string, string>)[name] = raw as T;
  };
  choice('resize', RESIZES);
  choice('format', FORMATS);
  return out;
}

/** The options a signed URL's token carries, written as Storage writes them (`width:100,resize:cover`). */
export function transformToString(o: TransformOptions): string {
  const parts: string[] = [];
  if (o.height) parts.push(`height:${clamp(o.height)}`);
  if (o.width) parts.push(`width:${clamp(o.width)}`);
  if ((o.width || o.height) && o.resize) parts.push(`resize:${o.resize}`);
  if (o.quality) parts.push(`quality:${o.quality}`);
  if (o.format && o.format !== 'origin') parts.push(`format:${o.format}`);
  return parts.join(',');
}

export function transformFromString(text: string): TransformOptions {
  const out: TransformOptions = {};
  for (const part of text.split(',')) {
    const [name, value] = part.split(':');
    if (!value) continue;
    if (name === 'width' || name === 'height' || name === 'quality') out[name] = parseInt(value, 10);
    else if (name === 'resize' && RESIZES.includes(value)) out.resize = value as TransformOptions['resize'];
    else if (name === 'format' && FORMATS.includes(value)) out.format = value as TransformOptions['format'];
  }
  return out;
}

/** `transform` in a signing request's body, checked as Storage's schema checks it. */
export function transformFromBody(value: unknown): TransformOptions | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object') throw ERRORS.validation('body/transform must be object');
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(value)) if (v !== undefined && v !== null) query.set(k, String(v));
  return transformFromQuery(query);
}

function clamp(n: number): number {
  return Math.min(Math.max(n, SIZE.min), SIZE.max);
}

/** The stored bytes, refusing a source over the size limit before reading it all. */
async function readSource(ctx: StorageContext, bucket: string, key: string, version: string, size: number) {
  if (size > MAX_SOURCE_BYTES) throw rejected(`the source image is larger than ${MAX_SOURCE_BYTES} bytes`);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of ctx.files.open(bucket, key, version)) {
    total += (chunk as Buffer).length;
    if (total > MAX_SOURCE_BYTES) throw rejected(`the source image is larger than ${MAX_SOURCE_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function rejected(reason: string): StorageError {
  return new StorageError(
    'InvalidImage',
    422,
    `Image transformation request was rejected: ${reason}`,
    'Unprocessable Entity',
    422,
  );
}

const OUTPUT_TYPES: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
  heif: 'image/avif',
  tiff: 'image/tiff',
};

/** Transforms the source as imgproxy would for Storage; returns the bytes and their type. */
export async function transformImage(
  source: Buffer,
  o: TransformOptions,
  accept: string | undefined,
): Promise<{ data: Buffer; contentType: string }> {
  const image = sharp(source, { limitInputPixels: MAX_SOURCE_PIXELS, failOn: 'error' });
  let meta: Metadata;
  try {
    meta = await image.metadata();
  } catch (e) {
    throw rejected((e as Error).message);
  }
  if (!meta.format || !meta.width || !meta.height) throw rejected('the source is not an image');
  if (meta.width * meta.height > MAX_SOURCE_PIXELS)
    throw rejected(`the source image is larger than ${MAX_SOURCE_PIXELS / 1e6} megapixels`);
  let pipeline = image.rotate();
  if (o.width || o.height) {
    pipeline = pipeline.resize({
      width: o.width ? clamp(o.width) : undefined,
      height: o.height ? clamp(o.height) : undefined,
      fit: o.resize === 'contain' ? 'inside' : o.resize === 'fill' ? 'fill' : 'cover',
      withoutEnlargement: true,
    });
  }
  const quality = o.quality ?? DEFAULT_QUALITY;
  const target =
    o.format === 'webp' || o.format === 'avif'
      ? o.format
      : o.format === undefined && /image\/webp/.test(accept ?? '')
        ? 'webp'
        : meta.format;
  if (target === 'webp') pipeline = pipeline.webp({ quality });
  else if (target === 'avif' || target === 'heif') pipeline = pipeline.avif({ quality });
  else if (target === 'jpeg') pipeline = pipeline.jpeg({ quality });
  else if (target === 'png') pipeline = pipeline.png();
  try {
    const data = await pipeline.toBuffer();
    return { data, contentType: OUTPUT_TYPES[target] ?? 'application/octet-stream' };
  } catch (e) {
    throw rejected((e as Error).message);
  }
}

export interface RenderableObject {
  bucket_id: string;
  name: string;
  version: string | null;
  metadata: { size?: number; eTag?: string; cacheControl?: string; lastModified?: string } | null;
}

/** Sends the transformed image with the headers Storage's image renderer sends. */
export async function renderImage(
  rq: ResponseRequest,
  obj: RenderableObject,
  o: TransformOptions,
  options: { download?: string; expires?: string },
) {
  const { ctx, req, res } = rq;
  if (!obj.version || !(await ctx.files.exists(obj.bucket_id, obj.name, obj.version)))
    throw ERRORS.noSuchKey();
  const source = await readSource(ctx, obj.bucket_id, obj.name, obj.version, obj.metadata?.size ?? 0);
  const { data, contentType } = await transformImage(source, o, req.headers.accept);
  const m = obj.metadata;
  const headers: Record<string, string> = {
    'content-type': contentType,
    'content-length': String(data.length),
    'x-robots-tag': 'none',
    'x-content-type-options': 'nosniff',
  };
  objectMetadataHeaders(headers, m, options);
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : data);
}
