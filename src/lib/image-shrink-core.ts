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

/** Every (size, quality) tried, in order, from the image's natural size down to SHRINK_MIN_SIDE. */
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

export interface ShrinkResult {
  blob: Blob;
  width: number;
  height: number;
  quality: number;
}

/** A 2D canvas of either kind, as far as encoding needs. */
export interface EncodeCanvas {
  width: number;
  height: number;
  getContext(kind: '2d'): OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
}

/**
 * Draws `bitmap` at each step of the ladder and encodes it as JPEG until the bytes fit SHRINK_MAX_BYTES
 * (on a white background: JPEG has no transparency). JPEG, not WebP: Chromium encodes a 1080 x 2400
 * screenshot as JPEG in about 0.15 s with 4x CPU throttling and as WebP in 1.5 to 3.5 s (measured on
 * this project's machine, docs/behaviour.md §5); WebP's files are a quarter smaller, but the user waits
 * for the encoder. Returns null when even the smallest step is too big.
 */
export async function encodeToFit(
  bitmap: ImageBitmap,
  makeCanvas: (width: number, height: number) => EncodeCanvas,
  encode: (canvas: EncodeCanvas, type: string, quality: number) => Promise<Blob>,
): Promise<ShrinkResult | null> {
  let canvas: EncodeCanvas | null = null;
  for (const step of encodingLadder(bitmap.width, bitmap.height)) {
    if (!canvas || canvas.width !== step.width || canvas.height !== step.height) {
      canvas = makeCanvas(step.width, step.height);
      const ctx = canvas.getContext('2d');
      if (!ctx) throw new Error('No 2D canvas');
      // JPEG has no transparency: a transparent screenshot would come out black.
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, step.width, step.height);
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(bitmap, 0, 0, step.width, step.height);
    }
    const blob = await encode(canvas, SHRINK_TYPE, step.quality);
    if (blob.type !== SHRINK_TYPE) throw new Error(`The browser wrote ${blob.type} for ${SHRINK_TYPE}`);
    if (blob.size <= SHRINK_MAX_BYTES)
      return { blob, width: step.width, height: step.height, quality: step.quality };
  }
  return null;
}
