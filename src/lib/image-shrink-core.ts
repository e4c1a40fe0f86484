/**
 * The part of the image shrinking (image-shrink.ts) that runs where the pixels are: in a worker with an
 * OffscreenCanvas, or on the page with a canvas where workers cannot draw. No DOM or React here.
 */

/** docs/behaviour.md §9: the server takes images of at most 500,000 bytes; this stays its rule. */
export const SHRINK_MAX_BYTES = 500_000;
/**
 * The longest side kept: a 1080 x 2400 phone screenshot keeps every pixel, so chat text stays as sharp
 * as on the phone. Larger photos are scaled down to it.
 */
export const SHRINK_MAX_SIDE = 2400;
/** Pixel budget: well under the server's decoder bound (supabase/functions/_shared/image.ts). */
export const SHRINK_MAX_PIXELS = 4_000_000;
/** What a shrunk image is written as (see encodeToFit). */
export const SHRINK_TYPE = 'image/jpeg';
/** Qualities tried in turn at one size before the size goes down (JPEG quality, 0..1). */
export const SHRINK_QUALITIES = [0.85, 0.72, 0.6] as const;
/** Each further round scales the sides by this much. */
export const SHRINK_STEP = 0.8;
/** Below this longest side a screenshot's text is no longer readable: give up rather than go lower. */
export const SHRINK_MIN_SIDE = 640;

/** The first size tried: within SHRINK_MAX_SIDE and SHRINK_MAX_PIXELS, the aspect ratio kept. */
export function firstSize(width: number, height: number): { width: number; height: number } {
  const bySide = SHRINK_MAX_SIDE / Math.max(width, height);
  const byPixels = Math.sqrt(SHRINK_MAX_PIXELS / (width * height));
  const scale = Math.min(1, bySide, byPixels);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Every (size, quality) that may be tried, best first, from the image's natural size down to SHRINK_MIN_SIDE. */
export function encodingLadder(
  width: number,
  height: number,
): { width: number; height: number; quality: number }[] {
  const steps: { width: number; height: number; quality: number }[] = [];
  let size = firstSize(width, height);
  for (;;) {
    for (const quality of SHRINK_QUALITIES) steps.push({ ...size, quality });
    const next = {
      width: Math.round(size.width * SHRINK_STEP),
      height: Math.round(size.height * SHRINK_STEP),
    };
    if (Math.max(next.width, next.height) < SHRINK_MIN_SIDE || next.width < 1 || next.height < 1) break;
    size = next;
  }
  return steps;
}

/**
 * JPEG's bytes at each of SHRINK_QUALITIES relative to 0.85, at the same size: Chromium's encoder gave
 * 0.69 and 0.55 for a 1080 x 2400 chat screenshot and 0.58 and 0.40 for a 12-megapixel photo; these are
 * about their mean. The bytes follow the pixel count (0.62 and 0.66 of them at 0.64 of the pixels).
 */
const QUALITY_BYTES: Record<number, number> = { 0.85: 1, 0.72: 0.64, 0.6: 0.48 };
/** A guess is taken when it predicts at most this share of SHRINK_MAX_BYTES (the guess is rough). */
const GUESS_MARGIN = 0.92;

export interface EncodingStep {
  width: number;
  height: number;
  quality: number;
}

/**
 * The next step to encode after `tried` gave `bytes` (too many): the first later step of `ladder`
 * whose predicted size fits, else the last one. Steps the prediction already rules out are never
 * encoded, so a photo that needs a quarter of its bytes takes two encodings instead of up to seven.
 */
export function nextStep(ladder: EncodingStep[], tried: number, bytes: number): number {
  const from = ladder[tried];
  for (let i = tried + 1; i < ladder.length; i++) {
    const step = ladder[i];
    const predicted =
      ((bytes * (step.width * step.height)) / (from.width * from.height)) *
      (QUALITY_BYTES[step.quality] / QUALITY_BYTES[from.quality]);
    if (predicted <= SHRINK_MAX_BYTES * GUESS_MARGIN) return i;
  }
  return ladder.length - 1;
}

/**
 * A phone photo's JPEG (quality about 92) re-encoded at 0.85 takes about half its bytes per pixel
 * (0.50 for the bench's 12-megapixel photo: 4.03 MB, 664 KB at 4 of its 12 megapixels).
 */
const JPEG_REENCODED = 0.5;

/**
 * The first step to encode: the best (index 0), except for a JPEG whose bytes per pixel predict that it
 * will not fit there; then the first step predicted to fit (one encoding instead of two for a phone
 * photo). Other types give no usable guess (a PNG's bytes say little about a JPEG's), so they start at
 * the best step and a miss is predicted from (nextStep).
 */
export function firstStep(
  ladder: EncodingStep[],
  source: { width: number; height: number; bytes: number; type: string },
): number {
  if (source.type !== 'image/jpeg' || ladder.length === 0) return 0;
  const top = ladder[0];
  const predicted =
    (JPEG_REENCODED * source.bytes * (top.width * top.height)) / (source.width * source.height);
  if (predicted <= SHRINK_MAX_BYTES * GUESS_MARGIN) return 0;
  return nextStep(ladder, 0, predicted);
}

/** Where the time of one shrinking went, in milliseconds (docs/performance.md, tests/bench/shrink-bench.ts). */
export interface ShrinkTimings {
  decode: number;
  draw: number;
  encode: number;
  /** How many encodings it took. */
  passes: number;
}

export interface ShrinkResult {
  blob: Blob;
  width: number;
  height: number;
  quality: number;
  timings: ShrinkTimings;
}

/** A 2D canvas of either kind, as far as encoding needs. */
export interface EncodeCanvas {
  width: number;
  height: number;
  getContext(kind: '2d'): OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
}

/**
 * Draws `bitmap` at a step of the ladder and encodes it as JPEG until the bytes fit SHRINK_MAX_BYTES
 * (on a white background: JPEG has no transparency). The first step is the best (every pixel up to
 * SHRINK_MAX_SIDE, quality 0.85: a phone screenshot fits there) unless the source predicts otherwise
 * (firstStep); after a miss the next step is the one the miss's size predicts to fit (nextStep), not
 * the next rung. JPEG, not WebP: Chromium encodes a
 * 1080 x 2400 screenshot as JPEG in about 0.15 s with 4x CPU throttling and as WebP in 1.5 to 3.5 s
 * (measured on this project's machine, docs/behaviour.md §5); WebP's files are a quarter smaller, but
 * the user waits for the encoder. Returns null when even the smallest step is too big.
 * `decodeMs` is the time the caller took to decode the bitmap, reported with the rest; `source` (the
 * picked file's bytes and type) lets a JPEG start at the step its size predicts (firstStep).
 */
export async function encodeToFit(
  bitmap: ImageBitmap,
  makeCanvas: (width: number, height: number) => EncodeCanvas,
  encode: (canvas: EncodeCanvas, type: string, quality: number) => Promise<Blob>,
  decodeMs = 0,
  source?: { bytes: number; type: string },
): Promise<ShrinkResult | null> {
  const timings: ShrinkTimings = { decode: decodeMs, draw: 0, encode: 0, passes: 0 };
  const ladder = encodingLadder(bitmap.width, bitmap.height);
  let canvas: EncodeCanvas | null = null;
  const first = source ? firstStep(ladder, { width: bitmap.width, height: bitmap.height, ...source }) : 0;
  for (let i = first; i < ladder.length;) {
    const step = ladder[i];
    if (!canvas || canvas.width !== step.width || canvas.height !== step.height) {
      const started = performance.now();
      canvas = makeCanvas(step.width, step.height);
      const ctx = canvas.getContext('2d');
      if (!ctx) throw new Error('No 2D canvas');
      // JPEG has no transparency: a transparent screenshot would come out black.
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, step.width, step.height);
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(bitmap, 0, 0, step.width, step.height);
      timings.draw += performance.now() - started;
    }
    const started = performance.now();
    const blob = await encode(canvas, SHRINK_TYPE, step.quality);
    timings.encode += performance.now() - started;
    timings.passes++;
    if (blob.type !== SHRINK_TYPE) throw new Error(`The browser wrote ${blob.type} for ${SHRINK_TYPE}`);
    if (blob.size <= SHRINK_MAX_BYTES)
      return { blob, width: step.width, height: step.height, quality: step.quality, timings };
    if (i === ladder.length - 1) break;
    i = nextStep(ladder, i, blob.size);
  }
  return null;
}
