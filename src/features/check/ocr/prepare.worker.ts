/**
 * Decodes a chosen image and prepares it for OCR (prepare.ts) off the page's thread, so the page stays
 * responsive: the answer is a PNG of black text on white, which Tesseract's own worker reads.
 */
import { prepareForOcr } from './prepare';

export interface PrepareRequest {
  image: Blob;
}

export type PrepareResponse =
  | { ok: true; png: Blob; width: number; height: number; sourceWidth: number; sourceHeight: number }
  | { ok: false; error: 'decode' | 'empty' };

/** The worker's own scope (the app's TypeScript program has the DOM's types, not a worker's). */
const scope = self as unknown as {
  postMessage(message: PrepareResponse): void;
  onmessage: ((event: MessageEvent<PrepareRequest>) => void) | null;
};

scope.onmessage = async (event) => {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(event.data.image);
  } catch {
    scope.postMessage({ ok: false, error: 'decode' } satisfies PrepareResponse);
    return;
  }
  const { width, height } = bitmap;
  if (!width || !height) {
    scope.postMessage({ ok: false, error: 'empty' } satisfies PrepareResponse);
    return;
  }
  const source = new OffscreenCanvas(width, height);
  const ctx = source.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  const prepared = prepareForOcr(ctx.getImageData(0, 0, width, height));
  const out = new OffscreenCanvas(prepared.width, prepared.height);
  const octx = out.getContext('2d')!;
  const rgba = octx.createImageData(prepared.width, prepared.height);
  for (let i = 0, j = 0; i < prepared.data.length; i++, j += 4) {
    const v = prepared.data[i];
    rgba.data[j] = v;
    rgba.data[j + 1] = v;
    rgba.data[j + 2] = v;
    rgba.data[j + 3] = 255;
  }
  octx.putImageData(rgba, 0, 0);
  const png = await out.convertToBlob({ type: 'image/png' });
  scope.postMessage({
    ok: true,
    png,
    width: prepared.width,
    height: prepared.height,
    sourceWidth: width,
    sourceHeight: height,
  } satisfies PrepareResponse);
};
