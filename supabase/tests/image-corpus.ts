/**
 * Hostile images for the upload tests (issue 11), built here byte by byte so every test knows exactly
 * what went in. Used by the Deno unit tests of supabase/functions/_shared/image.ts and by the stack
 * tests that send the same files through the legacy API and the app's upload path, so it imports
 * nothing but node:zlib, which both runtimes have.
 *
 * Each carrier hides MARKERS: text that must never be readable in anything stored.
 */
import { deflateSync } from 'node:zlib';

const enc = new TextEncoder();

/** Text planted in metadata; none of it may survive cleaning. */
export const MARKERS = ['scamcheck-secret', '<script>', 'GPS 14.5995N 120.9842E'] as const;
const SECRET = `${MARKERS[0]} ${MARKERS[1]}alert(document.cookie)</script> ${MARKERS[2]}`;

export function concat(...parts: (Uint8Array | number[])[]): Uint8Array<ArrayBuffer> {
  const arrays = parts.map((p) => (p instanceof Uint8Array ? p : Uint8Array.from(p)));
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

/** Whether `bytes` contain `text` anywhere (as Latin-1, so any byte sequence is searched). */
export function contains(bytes: Uint8Array, text: string): boolean {
  return new TextDecoder('latin1').decode(bytes).includes(text);
}

export function leakedMarkers(bytes: Uint8Array): string[] {
  return [...MARKERS, 'Exif', 'tEXt', 'scRt'].filter((m) => contains(bytes, m));
}

const u16be = (n: number) => [(n >>> 8) & 255, n & 255];
const u32be = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const u16le = (n: number) => [n & 255, (n >>> 8) & 255];
const u32le = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255];

// ---------------------------------------------------------------------------------------------
// PNG
// ---------------------------------------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function pngChunk(type: string, data: Uint8Array | number[]): Uint8Array<ArrayBuffer> {
  const body = concat(enc.encode(type), data);
  return concat(u32be(body.length - 4), body, u32be(crc32(body)));
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * A PNG of `width` x `height` RGB pixels (a colour ramp) with `extra` chunks before IDAT and
 * `trailer` chunks after it. `raw` replaces the filtered pixel rows (for bombs).
 */
export function png(
  opts: {
    width?: number;
    height?: number;
    colorType?: number;
    depth?: number;
    extra?: Uint8Array[];
    trailer?: Uint8Array[];
    raw?: Uint8Array;
  } = {},
): Uint8Array<ArrayBuffer> {
  const { width = 4, height = 3, colorType = 2, depth = 8 } = opts;
  let raw = opts.raw;
  if (!raw) {
    const rows: number[] = [];
    for (let y = 0; y < height; y++) {
      rows.push(0);
      for (let x = 0; x < width; x++) rows.push((x * 60) & 255, (y * 80) & 255, 120);
    }
    raw = Uint8Array.from(rows);
  }
  return concat(
    PNG_SIGNATURE,
    pngChunk('IHDR', concat(u32be(width), u32be(height), [depth, colorType, 0, 0, 0])),
    ...(opts.extra ?? []),
    pngChunk('IDAT', deflateSync(raw)),
    ...(opts.trailer ?? []),
    pngChunk('IEND', []),
  );
}

/** tEXt, iTXt and a private ancillary chunk ('scRt') carrying the secret, one of them after IDAT. */
export function pngWithTextAndUnknownChunk(): Uint8Array<ArrayBuffer> {
  return png({
    extra: [pngChunk('tEXt', enc.encode(`Comment\0${SECRET}`)), pngChunk('scRt', enc.encode(SECRET))],
    trailer: [pngChunk('iTXt', enc.encode(`XML:com.adobe.xmp\0\0\0\0\0${SECRET}`))],
  });
}

/**
 * The pixel bomb of the finding: 50,000 x 50,000 one-bit grey pixels, all zero, deflated at level 9
 * into about 304 KB. Decoding it would need 2.5 billion pixels.
 */
export function pngBomb(): Uint8Array<ArrayBuffer> {
  const width = 50_000;
  const height = 50_000;
  const raw = new Uint8Array(height * (1 + Math.ceil(width / 8)));
  return concat(
    PNG_SIGNATURE,
    pngChunk('IHDR', concat(u32be(width), u32be(height), [1, 0, 0, 0, 0])),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', []),
  );
}

/** A deflate bomb in a small frame: IHDR says 64 x 64 but the data inflates to 20 MB. */
export function pngDeflateBomb(): Uint8Array<ArrayBuffer> {
  return png({ width: 64, height: 64, raw: new Uint8Array(20_000_000) });
}

// ---------------------------------------------------------------------------------------------
// JPEG
// ---------------------------------------------------------------------------------------------

/** A 16 x 16 baseline JPEG (a colour ramp) as jpeg-js encodes it: SOI, APP0 JFIF, tables, SOF0, scan, EOI. */
export const BASE_JPEG = Uint8Array.from(
  atob(
    '/9j/4AAQSkZJRgABAQAAAQABAAD/2wCEAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSgBBwcHCggKEwoKEygaFhooKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKP/AABEIABAAEAMBEQACEQEDEQH/xAGiAAABBQEBAQEBAQAAAAAAAAAAAQIDBAUGBwgJCgsQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+gEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoLEQACAQIEBAMEBwUEBAABAncAAQIDEQQFITEGEkFRB2FxEyIygQgUQpGhscEJIzNS8BVictEKFiQ04SXxFxgZGiYnKCkqNTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqCg4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2dri4+Tl5ufo6ery8/T19vf4+fr/2gAMAwEAAhEDEQA/AJHttLCQjUvCsFosKGYzWEaBQnfe0chXjGeeR7A8/WKpXu/ZV3K+lpN3v5KUb/duccPqeIjy4XERi20tfZtvySqzlvfotX1Et47SKHzND15xsUnF0YZDI3G0YjTKjOcnDcc44pzlUk7Yilv25lbvu9fwNK8K2GlKVajCcNNY8il5+6ozv5Wfm/K7EGncS6FrjhjhUjujIgUY6lo4xuOe20cHrxzjK0Fy4il81Z/hJ6aeb9Dao6eJV8VQlGVnZw50r9LwUI/P3rv8n3dvrPzvqWgf2r50gja5sUd5W2/dbcriQAhevHHBxnFTCeH2pVuSyvaVktd90431/VEUoYjD8iwmIls3a1RJeTU5xi3r0vrd+Z//2Q==',
  ),
  (c) => c.charCodeAt(0),
);

function jpegSegment(marker: number, payload: Uint8Array | number[]): Uint8Array<ArrayBuffer> {
  const body = concat(payload);
  return concat([0xff, marker], u16be(body.length + 2), body);
}

/** An Exif block (big-endian TIFF) with a description and a GPS IFD at Manila's latitude and longitude. */
function exifWithGps(): Uint8Array<ArrayBuffer> {
  const description = enc.encode(`${SECRET}\0`);
  // IFD0 at 8: 2 entries (ImageDescription, GPSInfo pointer) = 2 + 2*12 + 4 = 30 bytes -> GPS IFD at 38.
  const gpsAt = 38;
  // GPS IFD: 4 entries = 2 + 48 + 4 = 54 bytes -> rationals at 92 (lat) and 116 (lon), text after.
  const latAt = gpsAt + 54;
  const lonAt = latAt + 24;
  const textAt = lonAt + 24;
  const rational = (...v: number[]) => v.flatMap((n) => [...u32be(n), ...u32be(1)]);
  const entry = (tag: number, type: number, count: number, value: number[]) =>
    concat(
      u16be(tag),
      u16be(type),
      u32be(count),
      value.length === 4 ? value : [...value, 0, 0, 0, 0].slice(0, 4),
    );
  const tiff = concat(
    enc.encode('MM'),
    [0, 42],
    u32be(8),
    u16be(2),
    entry(0x010e, 2, description.length, u32be(textAt)),
    entry(0x8825, 4, 1, u32be(gpsAt)),
    u32be(0),
    u16be(4),
    entry(0x0001, 2, 2, [0x4e, 0, 0, 0]),
    entry(0x0002, 5, 3, u32be(latAt)),
    entry(0x0003, 2, 2, [0x45, 0, 0, 0]),
    entry(0x0004, 5, 3, u32be(lonAt)),
    u32be(0),
    rational(14, 35, 58),
    rational(120, 59, 3),
    description,
  );
  return concat(enc.encode('Exif\0\0'), tiff);
}

/** The finding's JPEG: GPS in Exif (APP1), text in an extra APP0 segment, a comment and bytes after EOI. */
export function jpegWithGpsAndApp0Text(): Uint8Array<ArrayBuffer> {
  return concat(
    BASE_JPEG.subarray(0, 2),
    jpegSegment(0xe1, exifWithGps()),
    jpegSegment(0xe0, enc.encode(`JFXX\0${SECRET}`)),
    BASE_JPEG.subarray(2, BASE_JPEG.length - 2),
    jpegSegment(0xfe, enc.encode(SECRET)),
    [0xff, 0xd9],
    enc.encode(SECRET),
  );
}

/** The base JPEG with its frame header claiming `width` x `height` (the 60,000 x 60,000 finding). */
export function jpegClaiming(width: number, height: number): Uint8Array<ArrayBuffer> {
  const out = concat(BASE_JPEG);
  for (let i = 2; i + 9 < out.length;) {
    const marker = out[i + 1];
    const length = (out[i + 2] << 8) | out[i + 3];
    if (marker === 0xc0) {
      out.set([...u16be(height), ...u16be(width)], i + 5);
      return out;
    }
    i += 2 + length;
  }
  throw new Error('BASE_JPEG has no SOF0');
}

// ---------------------------------------------------------------------------------------------
// GIF
// ---------------------------------------------------------------------------------------------

/** Sub-blocks of at most 255 bytes and the terminator. */
function subBlocks(data: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < data.length; i += 255) {
    const part = data.subarray(i, i + 255);
    out.push(part.length, ...part);
  }
  out.push(0);
  return out;
}

/**
 * A 2 x 2 two-colour GIF89a with a plain-text extension (the finding), a comment and a foreign
 * application block, all carrying the secret, and the NETSCAPE loop block and a frame delay that stay.
 */
export function gifWithPlainText(): Uint8Array<ArrayBuffer> {
  return concat(
    enc.encode('GIF89a'),
    [...u16le(2), ...u16le(2), 0x80, 0, 0],
    [0x00, 0x00, 0x00, 0xff, 0xff, 0xff],
    [0x21, 0xff, 11, ...enc.encode('NETSCAPE2.0'), 3, 1, ...u16le(0), 0],
    [0x21, 0x01, 12, ...u16le(0), ...u16le(0), ...u16le(2), ...u16le(2), 1, 1, 1, 0],
    subBlocks(enc.encode(SECRET)),
    [0x21, 0xfe, ...subBlocks(enc.encode(SECRET))],
    [0x21, 0xff, 11, ...enc.encode('XMP DataXMP'), ...subBlocks(enc.encode(SECRET))],
    [0x21, 0xf9, 4, 0x00, ...u16le(10), 0, 0],
    [0x2c, ...u16le(0), ...u16le(0), ...u16le(2), ...u16le(2), 0],
    // LZW (minimum code size 2) of the indices 0 1 / 1 0, a checkerboard, as omggif writes it.
    [2, 3, 0x44, 0x02, 0x05, 0],
    [0x3b],
  );
}

// ---------------------------------------------------------------------------------------------
// WebP
// ---------------------------------------------------------------------------------------------

/** A 1 x 1 lossless WebP (VP8L). */
const BASE_WEBP_VP8L = Uint8Array.from(atob('LwAAAAAHEBERiIj+BwA='), (c) => c.charCodeAt(0));

function riffChunk(type: string, data: Uint8Array | number[]): Uint8Array<ArrayBuffer> {
  const body = concat(data);
  return concat(enc.encode(type), u32le(body.length), body, body.length % 2 ? [0] : []);
}

/** An extended WebP (VP8X) announcing Exif and XMP, with EXIF, XMP and an unknown chunk carrying the secret. */
export function webpWithMetadata(): Uint8Array<ArrayBuffer> {
  const body = concat(
    riffChunk('VP8X', [0x0c, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    riffChunk('VP8L', BASE_WEBP_VP8L),
    riffChunk('EXIF', enc.encode(SECRET)),
    riffChunk('XMP ', enc.encode(SECRET)),
    riffChunk('scRt', enc.encode(SECRET)),
  );
  return concat(enc.encode('RIFF'), u32le(4 + body.length), enc.encode('WEBP'), body);
}

// ---------------------------------------------------------------------------------------------
// Not images at all
// ---------------------------------------------------------------------------------------------

export const SVG_AS_PNG = enc.encode(
  `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(document.domain)</script></svg>`,
);
export const HTML_AS_PNG = enc.encode(
  `<!doctype html><html><body><script>alert(document.cookie)</script></body></html>`,
);

/**
 * The probe's WebP bomb (issue 28): an animated WebP whose VP8X canvas is `width` x `height` and whose
 * `frames` ANMF frames each cover the whole canvas, each holding a 1 x 1 VP8L bitstream. 300 frames of
 * 4000 x 4000 are a few KB and 4.8 gigapixels for whoever decodes them.
 */
export function animatedWebpBomb(frames: number, width: number, height: number): Uint8Array<ArrayBuffer> {
  const u24 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff];
  const frame = riffChunk(
    'ANMF',
    concat(
      [0, 0, 0, 0, 0, 0],
      u24(width - 1),
      u24(height - 1),
      [100, 0, 0, 0],
      riffChunk('VP8L', BASE_WEBP_VP8L),
    ),
  );
  const body = concat(
    riffChunk('VP8X', [0x02, 0, 0, 0, ...u24(width - 1), ...u24(height - 1)]),
    riffChunk('ANIM', [0, 0, 0, 0, 0, 0]),
    ...Array.from({ length: frames }, () => frame),
  );
  return concat(enc.encode('RIFF'), u32le(4 + body.length), enc.encode('WEBP'), body);
}
