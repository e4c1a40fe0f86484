/**
 * Shrinks images off the main thread (image-shrink.ts starts it and keeps it while a picker is on the
 * page): decodes each file, draws it on an OffscreenCanvas and encodes it until it fits. Each request
 * { id, file } is answered { id, ok: true, result } or { id, ok: false, reason }, in turn.
 */
import { encodeToFit } from './image-shrink-core';

self.onmessage = async (event: MessageEvent<{ id: number; file: Blob }>) => {
  const { id, file } = event.data;
  const started = performance.now();
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    self.postMessage({ id, ok: false, reason: 'undecodable' });
    return;
  }
  try {
    const result = await encodeToFit(
      bitmap,
      (width, height) => new OffscreenCanvas(width, height),
      (canvas, type, quality) => (canvas as OffscreenCanvas).convertToBlob({ type, quality }),
      performance.now() - started,
      { bytes: file.size, type: file.type },
    );
    self.postMessage(result ? { id, ok: true, result } : { id, ok: false, reason: 'tooLarge' });
  } catch {
    self.postMessage({ id, ok: false, reason: 'failed' });
  } finally {
    bitmap.close();
  }
};
