import { sha256Hex } from './hash';
import type { PackEvidence } from './pack-input';

/** A JPEG of an image pdf-lib cannot embed (WebP, GIF), drawn on a canvas on the device. */
async function asJpeg(bitmap: ImageBitmap): Promise<Uint8Array> {
  const canvas = Object.assign(document.createElement('canvas'), {
    width: bitmap.width,
    height: bitmap.height,
  });
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('No 2D canvas');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(bitmap, 0, 0);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.9));
  if (!blob) throw new Error('JPEG encoding failed');
  return new Uint8Array(await blob.arrayBuffer());
}

/**
 * An evidence file as the pack needs it: the SHA-256 of its bytes exactly as stored or chosen, and an
 * image pdf-lib can embed (JPEG and PNG as they are, anything else converted to JPEG). A file the
 * browser cannot decode is still listed with its hash, without a picture.
 */
export async function prepareEvidence(name: string, blob: Blob): Promise<PackEvidence> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  const sha256 = await sha256Hex(bytes);
  let image: PackEvidence['image'] = null;
  try {
    const bitmap = await createImageBitmap(blob);
    const { width, height } = bitmap;
    const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
    const isPng = bytes[0] === 0x89 && bytes[1] === 0x50;
    image = isJpeg
      ? { kind: 'jpeg', data: bytes, width, height }
      : isPng
        ? { kind: 'png', data: bytes, width, height }
        : { kind: 'jpeg', data: await asJpeg(bitmap), width, height };
    bitmap.close();
  } catch {
    image = null;
  }
  return { name, bytes: bytes.length, sha256, image };
}
