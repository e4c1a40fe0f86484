/**
 * Shrinks one image off the main thread (image-shrink.ts starts it): decodes the file, draws it on an
 * OffscreenCanvas and encodes it until it fits. Answers { ok: true, result } or { ok: false, reason }.
 */
import { encodeToFit } from './image-shrink-core';

self.onmessage = async (event: MessageEvent<{ file: Blob }>) => {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(event.data.file);
  } catch {
    self.postMessage({ ok: false, reason: 'undecodable' });
    return;
  }
  try {
    const result = await encodeToFit(
      bitmap,
      (width, height) => new OffscreenCanvas(width, height),
      (canvas, type, quality) => (canvas as OffscreenCanvas).convertToBlob({ type, quality }),
    );
    self.postMessage(result ? { ok: true, result } : { ok: false, reason: 'tooLarge' });
  } catch {
    self.postMessage({ ok: false, reason: 'failed' });
  } finally {
    bitmap.close();
  }
};
