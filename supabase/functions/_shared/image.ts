/**
 * Image safety for uploads (evidence, avatars, news banners).
 *
 * - The type comes from the file's bytes (magic numbers), never from the name or the declared
 *   Content-Type: a script renamed .png is refused.
 * - Only JPEG, PNG, WebP and GIF are accepted, at most 500000 bytes (SPEC.md sections 5 and 9).
 * - Metadata is removed by rewriting the container without the segments or chunks that carry it
 *   (JPEG APP1 Exif/XMP, APP13 IPTC, comments; PNG tEXt/zTXt/iTXt/eXIf/tIME; WebP EXIF/XMP; GIF
 *   comments and foreign application blocks), so GPS tags and camera serials never reach Storage.
 *   The pixels are not touched, so nothing is lost in quality; the one visible effect is that an
 *   Exif orientation flag goes too.
 * - Anything that does not parse as the format its bytes claim is refused: a file that only starts
 *   like an image is not one.
 * - Stored names are chosen here (a random UUID and the real extension), never the uploader's.
 */
import { HttpError } from './http.ts';

export const MAX_IMAGE_BYTES = 500_000;

export type ImageKind = 'jpeg' | 'png' | 'webp' | 'gif';

export interface ImageType {
  kind: ImageKind;
  mime: string;
  ext: string;
}

const TYPES: Record<ImageKind, ImageType> = {
  jpeg: { kind: 'jpeg', mime: 'image/jpeg', ext: 'jpg' },
  png: { kind: 'png', mime: 'image/png', ext: 'png' },
  webp: { kind: 'webp', mime: 'image/webp', ext: 'webp' },
  gif: { kind: 'gif', mime: 'image/gif', ext: 'gif' },
};

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

/** The image type the bytes begin with, or null when they are not one of the accepted formats. */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return TYPES.jpeg;
  if (bytes.length >= 8 && PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return TYPES.png;
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return TYPES.webp;
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a'))
    return TYPES.gif;
  return null;
}

/** Thrown when bytes that look like an image do not parse as one. */
export class MalformedImage extends Error {}

class Writer {
  private parts: Uint8Array[] = [];
  length = 0;
  push(part: Uint8Array) {
    this.parts.push(part);
    this.length += part.length;
  }
  bytes(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

function need(cond: boolean, what: string): asserts cond {
  if (!cond) throw new MalformedImage(what);
}

/** Application segments worth keeping: JFIF/JFXX (APP0), the ICC colour profile (APP2) and Adobe's colour transform (APP14). */
function keepJpegAppSegment(marker: number, payload: Uint8Array): boolean {
  if (marker === 0xe0) return true;
  if (marker === 0xe2) return ascii(payload, 0, 12) === 'ICC_PROFILE\0';
  if (marker === 0xee) return ascii(payload, 0, 5) === 'Adobe';
  return false;
}

function stripJpeg(b: Uint8Array): Uint8Array {
  const out = new Writer();
  out.push(b.subarray(0, 2));
  let i = 2;
  let sawFrame = false;
  let sawScan = false;
  while (i < b.length) {
    need(b[i] === 0xff, 'JPEG segment does not start with a marker');
    while (i < b.length && b[i] === 0xff) i++; // fill bytes
    need(i < b.length, 'JPEG ends inside a marker');
    const marker = b[i];
    const markerStart = i - 1;
    i++;
    if (marker === 0xd9) {
      // End of image: anything after it (a smuggled archive or script) is dropped.
      out.push(Uint8Array.of(0xff, 0xd9));
      need(sawFrame && sawScan, 'JPEG has no image data');
      return out.bytes();
    }
    need(marker !== 0xd8 && marker !== 0x00, 'JPEG has an unexpected marker');
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      out.push(b.subarray(markerStart, i));
      continue;
    }
    need(i + 2 <= b.length, 'JPEG ends inside a segment header');
    const length = (b[i] << 8) | b[i + 1];
    need(length >= 2 && i + length <= b.length, 'JPEG segment length runs past the end of the file');
    const payload = b.subarray(i + 2, i + length);
    const segmentEnd = i + length;
    const isApp = marker >= 0xe0 && marker <= 0xef;
    const isComment = marker === 0xfe;
    if (!(isComment || (isApp && !keepJpegAppSegment(marker, payload)))) {
      out.push(Uint8Array.of(0xff, marker));
      out.push(b.subarray(i, segmentEnd));
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      sawFrame = true;
    i = segmentEnd;
    if (marker === 0xda) {
      sawScan = true;
      // Entropy-coded data runs until a marker that is neither a stuffed 0xFF00 nor a restart marker.
      let j = i;
      while (j < b.length) {
        if (b[j] === 0xff && j + 1 < b.length) {
          const next = b[j + 1];
          if (next !== 0x00 && !(next >= 0xd0 && next <= 0xd7) && next !== 0xff) break;
        }
        j++;
      }
      need(j < b.length, 'JPEG ends without an end-of-image marker');
      out.push(b.subarray(i, j));
      i = j;
    }
  }
  throw new MalformedImage('JPEG ends without an end-of-image marker');
}

const PNG_METADATA_CHUNKS = new Set(['tEXt', 'zTXt', 'iTXt', 'eXIf', 'tIME']);

function stripPng(b: Uint8Array): Uint8Array {
  const out = new Writer();
  out.push(b.subarray(0, 8));
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let i = 8;
  let first = true;
  let sawData = false;
  while (i + 12 <= b.length) {
    const length = view.getUint32(i);
    const type = ascii(b, i + 4, 4);
    need(/^[A-Za-z]{4}$/.test(type), 'PNG chunk has an invalid type');
    const end = i + 12 + length;
    need(end <= b.length, 'PNG chunk runs past the end of the file');
    need(!first || type === 'IHDR', 'PNG does not start with IHDR');
    first = false;
    if (type === 'IDAT') sawData = true;
    if (!PNG_METADATA_CHUNKS.has(type)) out.push(b.subarray(i, end));
    i = end;
    if (type === 'IEND') {
      need(sawData, 'PNG has no image data');
      return out.bytes();
    }
  }
  throw new MalformedImage('PNG ends without an IEND chunk');
}

function stripWebp(b: Uint8Array): Uint8Array {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const riffEnd = 8 + view.getUint32(4, true);
  need(riffEnd <= b.length && riffEnd >= 12, 'WebP size field does not match the file');
  const chunks: Uint8Array[] = [];
  let i = 12;
  let sawImage = false;
  while (i + 8 <= riffEnd) {
    const type = ascii(b, i, 4);
    const size = view.getUint32(i + 4, true);
    const end = i + 8 + size + (size % 2);
    need(end <= riffEnd, 'WebP chunk runs past the end of the file');
    if (type === 'VP8 ' || type === 'VP8L' || type === 'ANMF') sawImage = true;
    if (type !== 'EXIF' && type !== 'XMP ') {
      const chunk = b.slice(i, end);
      // VP8X announces Exif (bit 3) and XMP (bit 2); the chunks are gone, so the flags must go too.
      if (type === 'VP8X' && size >= 1) chunk[8] &= ~0x0c;
      chunks.push(chunk);
    }
    i = end;
  }
  need(i === riffEnd, 'WebP has trailing bytes inside its RIFF container');
  need(sawImage, 'WebP has no image data');
  const bodyLength = chunks.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(12 + bodyLength);
  out.set(b.subarray(0, 12));
  new DataView(out.buffer).setUint32(4, 4 + bodyLength, true);
  let at = 12;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Application extensions that drive animation; every other one (XMP among them) is dropped. */
const GIF_KEPT_APPLICATIONS = new Set(['NETSCAPE2.0', 'ANIMEXTS1.0']);

function stripGif(b: Uint8Array): Uint8Array {
  const out = new Writer();
  need(b.length >= 13, 'GIF is too short');
  let i = 13;
  const flags = b[10];
  if (flags & 0x80) i += 3 * (1 << ((flags & 0x07) + 1));
  need(i <= b.length, 'GIF colour table runs past the end of the file');
  out.push(b.subarray(0, i));
  // Sub-blocks: a size byte and that many bytes, until a zero size; returns the index after them.
  const skipSubBlocks = (at: number) => {
    while (true) {
      need(at < b.length, 'GIF ends inside a data block');
      const size = b[at];
      at += 1 + size;
      if (size === 0) return at;
    }
  };
  let sawImage = false;
  while (i < b.length) {
    const introducer = b[i];
    if (introducer === 0x3b) {
      need(sawImage, 'GIF has no image data');
      out.push(Uint8Array.of(0x3b));
      return out.bytes();
    }
    if (introducer === 0x2c) {
      need(i + 10 <= b.length, 'GIF image descriptor runs past the end of the file');
      let j = i + 10;
      const local = b[i + 9];
      if (local & 0x80) j += 3 * (1 << ((local & 0x07) + 1));
      j += 1; // LZW minimum code size
      const end = skipSubBlocks(j);
      out.push(b.subarray(i, end));
      sawImage = true;
      i = end;
      continue;
    }
    need(introducer === 0x21 && i + 2 <= b.length, 'GIF has an unknown block');
    const label = b[i + 1];
    const end = skipSubBlocks(i + 2);
    let keep = label !== 0xfe;
    if (label === 0xff) keep = b[i + 2] === 11 && GIF_KEPT_APPLICATIONS.has(ascii(b, i + 3, 11));
    if (keep) out.push(b.subarray(i, end));
    i = end;
  }
  throw new MalformedImage('GIF ends without a trailer');
}

/** The same image without its metadata; throws MalformedImage when the bytes do not parse. */
export function stripMetadata(bytes: Uint8Array, kind: ImageKind): Uint8Array {
  switch (kind) {
    case 'jpeg':
      return stripJpeg(bytes);
    case 'png':
      return stripPng(bytes);
    case 'webp':
      return stripWebp(bytes);
    case 'gif':
      return stripGif(bytes);
  }
}

export interface SafeImage {
  bytes: Uint8Array;
  type: ImageType;
}

/**
 * Checks an uploaded file and returns its bytes without metadata, or throws a 400 with a message the
 * user can act on. `label` names the field in messages ('Evidence', 'Avatar', 'News banner').
 */
export async function safeImage(file: Blob, label: string): Promise<SafeImage> {
  if (file.size > MAX_IMAGE_BYTES) throw new HttpError(400, 'Image size too large');
  if (file.size === 0) throw new HttpError(400, `${label} file is empty`);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = detectImageType(bytes);
  if (!type)
    throw new HttpError(400, `${label} must be an image (JPEG, PNG, WebP or GIF); this file is not one`);
  try {
    return { bytes: stripMetadata(bytes, type.kind), type };
  } catch (e) {
    if (e instanceof MalformedImage)
      throw new HttpError(400, `${label} is not a valid ${type.kind.toUpperCase()} image: ${e.message}`);
    throw e;
  }
}

/** A server-chosen object name: `<folder>/<uuid>.<ext>` (the uploader's file name is never used). */
export function objectName(folder: string, type: ImageType): string {
  return `${folder}/${crypto.randomUUID()}.${type.ext}`;
}
