/**
 * Image safety for uploads (evidence, avatars, news banners), whichever way they arrive (the legacy API
 * or the app's `upload-image` function; the buckets take no direct writes from users).
 *
 * - The type comes from the file's bytes (magic numbers), never from the name or the declared
 *   Content-Type: a script, an SVG or an HTML page sent as image/png is refused.
 * - Only JPEG, PNG, WebP and GIF are accepted, at most 500000 bytes (docs/behaviour.md §5 and §9).
 * - The pixel count is read from the header and limited (MAX_IMAGE_PIXELS) before anything is
 *   decoded, so a small file claiming 50,000 x 50,000 pixels never allocates them; a PNG's compressed
 *   data is also measured while inflating and refused once it holds more than its header announces.
 * - Nothing the uploader wrote survives but the pixels. JPEG and PNG are rebuilt from a whitelist
 *   of the segments or chunks that decode them (tables, frame, scans; IHDR, PLTE, tRNS, IDAT, IEND),
 *   losslessly; GIF is decoded frame by frame and encoded again with omggif; WebP keeps only VP8, VP8L,
 *   VP8X, ALPH, ANIM and ANMF. So no Exif or GPS, no APP0 or ICC segment, no text or unknown chunk,
 *   no GIF plain-text, comment or foreign application block and no bytes after the end of the image.
 *   JPEG and PNG are not decoded and encoded again on purpose: with the pure-JS codecs that run in the
 *   edge runtime (jpeg-js, fast-png) that takes 2 to 3 s of CPU for a 2-megapixel photo (measured),
 *   above the 2 s of CPU a hosted edge function gets per request, and it costs JPEG quality.
 * - The Exif orientation flag and colour profiles go with the rest of the metadata.
 * - Stored names are chosen here (a random UUID and the real extension), never the uploader's.
 */
// @deno-types="npm:@types/omggif@1.0.5"
import { GifReader, GifWriter } from 'npm:omggif@1.0.10';
import { Unzlib } from 'npm:fflate@0.8.2';
import { HttpError } from './http.ts';

export const MAX_IMAGE_BYTES = 500_000;
/** 16 megapixels: a 4608 x 3456 phone photo fits; a viewer decoding it needs at most 64 MB as RGBA. */
export const MAX_IMAGE_PIXELS = 16_000_000;
/** Animated GIFs and WebPs: the frames together, each decoded in turn. */
export const MAX_GIF_FRAMES = 300;

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

/**
 * The image type the bytes begin with, or null when they are not one of the accepted formats. No length
 * checks are needed: a byte past the end reads as undefined and `ascii` returns fewer characters, so a
 * file shorter than a signature never matches it.
 */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return TYPES.jpeg;
  if (PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return TYPES.png;
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return TYPES.webp;
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return TYPES.gif;
  return null;
}

/** Thrown when bytes that look like an image do not parse as one. */
export class MalformedImage extends Error {}

/** Thrown when an image announces more pixels than MAX_IMAGE_PIXELS. */
export class TooManyPixels extends Error {
  constructor(
    public width: number,
    public height: number,
    /** For an animation: the frames' pixels together, which is what was over the limit. */
    public framesArea?: number,
  ) {
    super(
      framesArea === undefined
        ? `${width} x ${height} pixels is more than the ${MAX_IMAGE_PIXELS / 1_000_000} megapixels allowed`
        : `its frames hold ${Math.round(framesArea / 1_000_000)} megapixels together, more than the ${MAX_IMAGE_PIXELS / 1_000_000} megapixels allowed`,
    );
  }
}

function need(cond: boolean, what: string): asserts cond {
  if (!cond) throw new MalformedImage(what);
}

function checkPixels(width: number, height: number): void {
  need(width > 0 && height > 0, 'the image has no pixels');
  if (width * height > MAX_IMAGE_PIXELS) throw new TooManyPixels(width, height);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Dimensions from the header, before any decoding
// ---------------------------------------------------------------------------------------------

/** Width and height from the first frame header (SOF0-SOF15 but DHT, JPG and DAC). */
export function jpegSize(b: Uint8Array): { width: number; height: number } {
  let i = 2;
  while (i + 4 <= b.length) {
    need(b[i] === 0xff, 'JPEG segment does not start with a marker');
    while (b[i] === 0xff) i++; // fill bytes (past the end b[i] is undefined)
    const marker = b[i++];
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue;
    need(marker !== 0xd9 && marker !== 0xda, 'JPEG has no frame header before its image data');
    need(i + 2 <= b.length, 'JPEG ends inside a segment header');
    const length = (b[i] << 8) | b[i + 1];
    need(length >= 2 && i + length <= b.length, 'JPEG segment length runs past the end of the file');
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      need(length >= 7, 'JPEG frame header is too short');
      const height = (b[i + 3] << 8) | b[i + 4];
      const width = (b[i + 5] << 8) | b[i + 6];
      need(height > 0, 'JPEG frame header gives no height');
      return { width, height };
    }
    i += length;
  }
  throw new MalformedImage('JPEG has no frame header');
}

// ---------------------------------------------------------------------------------------------
// JPEG: the segments that decode the pixels, nothing else
// ---------------------------------------------------------------------------------------------

/** Tables, restart interval and the baseline, extended and progressive Huffman frames. */
const JPEG_KEPT = new Set([0xdb, 0xc4, 0xdd, 0xc0, 0xc1, 0xc2]);

/**
 * Rebuilds the JPEG from a whitelist: quantisation and Huffman tables, the frame header, the restart
 * interval and the scans with their entropy-coded data. Every application segment (APP0 JFIF and its
 * extensions, APP1 Exif/XMP, APP2 ICC, APP13 IPTC, ...), every comment and anything after the end of
 * the image goes. Adobe's APP14 is the one segment a decoder needs (it says whether 3 or 4 components
 * are YCbCr/YCCK or RGB/CMYK): it is written anew from its one-byte transform flag.
 */
function stripJpeg(b: Uint8Array): Uint8Array {
  const { width, height } = jpegSize(b);
  checkPixels(width, height);
  const out: Uint8Array[] = [Uint8Array.of(0xff, 0xd8)];
  let adobeTransform: number | null = null;
  let i = 2;
  let sawFrame = false;
  let sawScan = false;
  while (i < b.length) {
    need(b[i] === 0xff, 'JPEG segment does not start with a marker');
    while (b[i] === 0xff) i++; // fill bytes
    need(i < b.length, 'JPEG ends inside a marker');
    const marker = b[i++];
    if (marker === 0xd9) {
      need(sawFrame && sawScan, 'JPEG has no image data');
      out.push(Uint8Array.of(0xff, 0xd9));
      if (adobeTransform !== null) {
        // APP14 "Adobe", version 100, no flags, the transform: right after SOI.
        out.splice(
          1,
          0,
          Uint8Array.of(0xff, 0xee, 0, 14, 0x41, 0x64, 0x6f, 0x62, 0x65, 0, 100, 0, 0, 0, 0, adobeTransform),
        );
      }
      return concat(out);
    }
    // SOI again, a stuffed 0x00, a restart marker outside a scan, or TEM (0x01, arithmetic coding only).
    // jpegSize steps over TEM as a marker without a length; read here with a length, it could hide a
    // frame header from one walk and not the other, so the size checked would not be the size kept.
    need(
      marker !== 0xd8 && marker !== 0x00 && marker !== 0x01 && !(marker >= 0xd0 && marker <= 0xd7),
      'JPEG has an unexpected marker',
    );
    need(i + 2 <= b.length, 'JPEG ends inside a segment header');
    const length = (b[i] << 8) | b[i + 1];
    need(length >= 2 && i + length <= b.length, 'JPEG segment length runs past the end of the file');
    const segmentEnd = i + length;
    if (marker >= 0xc3 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      throw new MalformedImage(
        'JPEG uses a lossless, hierarchical or arithmetic-coded frame, which is not supported',
      );
    }
    if (marker === 0xee && length >= 14 && ascii(b, i + 2, 5) === 'Adobe')
      adobeTransform = b[i + 13] <= 2 ? b[i + 13] : 0;
    if (JPEG_KEPT.has(marker) || marker === 0xda) out.push(b.subarray(i - 2, segmentEnd));
    if (marker >= 0xc0 && marker <= 0xc2) {
      need(!sawFrame, 'JPEG has more than one frame');
      sawFrame = true;
    }
    i = segmentEnd;
    if (marker === 0xda) {
      need(sawFrame, 'JPEG has image data before its frame header');
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
      // Data that runs to the end of the file leaves the loop above, which refuses it.
      out.push(b.subarray(i, j));
      i = j;
    }
  }
  throw new MalformedImage('JPEG ends without an end-of-image marker');
}

// ---------------------------------------------------------------------------------------------
// PNG: the chunks that hold pixels, checked against the header
// ---------------------------------------------------------------------------------------------

interface PngHeader {
  width: number;
  height: number;
  depth: number;
  colorType: number;
  interlace: number;
}

const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** The bytes the image data inflates to when it holds exactly what IHDR announces (filter bytes included). */
function pngRawSize(h: PngHeader): number {
  const bits = (PNG_CHANNELS[h.colorType] ?? 4) * h.depth;
  // Only called for a width of at least 1 (checkPixels, and the pass test below).
  const rowBytes = (w: number) => 1 + Math.ceil((w * bits) / 8);
  if (h.interlace === 0) return h.height * rowBytes(h.width);
  const passes = [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2],
  ];
  let total = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const w = Math.ceil((h.width - x0) / dx);
    const rows = Math.ceil((h.height - y0) / dy);
    if (w > 0 && rows > 0) total += rows * rowBytes(w);
  }
  return total;
}

/**
 * Walks the chunks, checks IHDR against the pixel limit and inflates the image data once, counting,
 * so a deflate bomb (small file, huge stream) is stopped as soon as it passes what IHDR announced.
 */
function checkPng(b: Uint8Array): PngHeader {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  need(
    b.length >= 33 && ascii(b, 12, 4) === 'IHDR' && view.getUint32(8) === 13,
    'PNG does not start with IHDR',
  );
  const header: PngHeader = {
    width: view.getUint32(16),
    height: view.getUint32(20),
    depth: b[24],
    colorType: b[25],
    interlace: b[28],
  };
  checkPixels(header.width, header.height);
  const limit = pngRawSize(header);
  let inflated = 0;
  let ended = false;
  const unzlib = new Unzlib((chunk) => {
    inflated += chunk.length;
    if (inflated > limit) throw new MalformedImage('PNG image data holds more than its header announces');
  });
  let i = 8;
  let sawData = false;
  while (i + 12 <= b.length) {
    const length = view.getUint32(i);
    const type = ascii(b, i + 4, 4);
    need(/^[A-Za-z]{4}$/.test(type), 'PNG chunk has an invalid type');
    need(i + 12 + length <= b.length, 'PNG chunk runs past the end of the file');
    if (type === 'IDAT') {
      sawData = true;
      try {
        unzlib.push(b.subarray(i + 8, i + 8 + length));
      } catch (e) {
        if (e instanceof MalformedImage) throw e;
        throw new MalformedImage('PNG image data is not a valid zlib stream');
      }
    }
    i += 12 + length;
    if (type === 'IEND') {
      ended = true;
      break;
    }
  }
  need(ended, 'PNG ends without an IEND chunk');
  need(sawData, 'PNG has no image data');
  return header;
}

/** Image header, palette, transparency and image data: every other chunk (text, Exif, time, ICC, unknown) goes. */
const PNG_KEPT = new Set(['IHDR', 'PLTE', 'tRNS', 'IDAT', 'IEND']);

function stripPng(b: Uint8Array): Uint8Array {
  checkPng(b);
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out: Uint8Array[] = [b.subarray(0, 8)];
  let i = 8;
  while (true) {
    const length = view.getUint32(i);
    const type = ascii(b, i + 4, 4);
    if (PNG_KEPT.has(type)) out.push(b.subarray(i, i + 12 + length));
    i += 12 + length;
    if (type === 'IEND') return concat(out); // checkPng saw IEND, and nothing after it is copied
  }
}

// ---------------------------------------------------------------------------------------------
// GIF: decode every frame and encode again
// ---------------------------------------------------------------------------------------------

/**
 * The GIF without the extension blocks omggif does not read (plain text, unknown labels) and without
 * comments and application blocks other than the loop count: its reader refuses the first kind.
 */
function gifImageBlocksOnly(b: Uint8Array): Uint8Array {
  let i = 13; // reencodeGif checked that the header and screen descriptor are there
  const flags = b[10];
  if (flags & 0x80) i += 3 * (1 << ((flags & 0x07) + 1));
  need(i <= b.length, 'GIF colour table runs past the end of the file');
  const out: Uint8Array[] = [b.subarray(0, i)];
  const skipSubBlocks = (at: number) => {
    while (true) {
      need(at < b.length, 'GIF ends inside a data block');
      const size = b[at];
      at += 1 + size;
      if (size === 0) return at;
    }
  };
  while (i < b.length) {
    const introducer = b[i];
    if (introducer === 0x3b) {
      out.push(Uint8Array.of(0x3b));
      return concat(out);
    }
    if (introducer === 0x2c) {
      need(i + 10 <= b.length, 'GIF image descriptor runs past the end of the file');
      let j = i + 10;
      const local = b[i + 9];
      if (local & 0x80) j += 3 * (1 << ((local & 0x07) + 1));
      const end = skipSubBlocks(j + 1);
      out.push(b.subarray(i, end));
      i = end;
      continue;
    }
    need(introducer === 0x21 && i + 2 <= b.length, 'GIF has an unknown block');
    const label = b[i + 1];
    const end = skipSubBlocks(i + 2);
    const keep =
      label === 0xf9 || (label === 0xff && b[i + 2] === 11 && ascii(b, i + 3, 11) === 'NETSCAPE2.0');
    if (keep) out.push(b.subarray(i, end));
    i = end;
  }
  throw new MalformedImage('GIF ends without a trailer');
}

function reencodeGif(bytes: Uint8Array): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  need(bytes.length >= 13, 'GIF is too short');
  const width = view.getUint16(6, true);
  const height = view.getUint16(8, true);
  checkPixels(width, height);
  const gif = gifImageBlocksOnly(bytes);
  let reader: GifReader;
  try {
    reader = new GifReader(gif);
  } catch (e) {
    throw new MalformedImage(`GIF could not be read (${e instanceof Error ? e.message : String(e)})`);
  }
  const frames = reader.numFrames();
  need(frames > 0, 'GIF has no image data');
  need(frames <= MAX_GIF_FRAMES, `GIF has more than ${MAX_GIF_FRAMES} frames`);
  let area = 0;
  for (let f = 0; f < frames; f++) {
    const info = reader.frameInfo(f);
    need(info.x + info.width <= width && info.y + info.height <= height, 'GIF frame lies outside the image');
    need(info.palette_offset !== null, 'GIF frame has no colour table');
    area += info.width * info.height;
  }
  if (area > MAX_IMAGE_PIXELS) throw new TooManyPixels(width, height, area);
  // LZW output: at most one code of at most 12 bits per index (1.5 bytes), plus a length byte per 255
  // bytes of data, a clear code per 4,093 codes, and each frame's palette and headers.
  const out = new Uint8Array(
    Math.ceil(area * 1.5 * (256 / 255) * (4094 / 4093)) + frames * (768 + 64) + 1024,
  );
  const loop = reader.loopCount();
  const writer = new GifWriter(out, width, height, loop === null ? {} : { loop });
  const canvas = new Uint8Array(width * height * 4);
  for (let f = 0; f < frames; f++) {
    const info = reader.frameInfo(f);
    const palette: number[] = [];
    const indexOf = new Map<number, number>();
    for (let k = 0; k < (info.palette_size ?? 0); k++) {
      const at = info.palette_offset! + 3 * k;
      const colour = (gif[at] << 16) | (gif[at + 1] << 8) | gif[at + 2];
      palette.push(colour);
      if (!indexOf.has(colour)) indexOf.set(colour, k);
    }
    for (let y = info.y; y < info.y + info.height; y++)
      canvas.fill(0, (y * width + info.x) * 4, (y * width + info.x + info.width) * 4);
    try {
      reader.decodeAndBlitFrameRGBA(f, canvas);
    } catch (e) {
      throw new MalformedImage(
        `GIF frame ${f + 1} could not be decoded (${e instanceof Error ? e.message : String(e)})`,
      );
    }
    const indices = new Uint8Array(info.width * info.height);
    const transparent = info.transparent_index ?? null;
    for (let y = 0; y < info.height; y++) {
      for (let x = 0; x < info.width; x++) {
        const p = ((info.y + y) * width + info.x + x) * 4;
        indices[y * info.width + x] =
          canvas[p + 3] === 0 && transparent !== null
            ? transparent
            : (indexOf.get((canvas[p] << 16) | (canvas[p + 1] << 8) | canvas[p + 2]) ?? 0);
      }
    }
    // omggif's types say number[]; it only indexes the array, so a typed array does the same job.
    writer.addFrame(info.x, info.y, info.width, info.height, indices as unknown as number[], {
      palette,
      delay: info.delay,
      disposal: info.disposal,
      ...(transparent !== null ? { transparent } : {}),
    });
  }
  // Typed arrays drop writes past their end: a file the buffer could not hold would be cut short.
  if (writer.end() > out.length)
    throw new Error(`GIF re-encoding needed ${writer.end()} bytes, had ${out.length}`);
  return out.slice(0, writer.end());
}

// ---------------------------------------------------------------------------------------------
// WebP: only the image chunks
// ---------------------------------------------------------------------------------------------

/** The chunks that carry pixels, alpha and animation; everything else (EXIF, XMP, ICCP, unknown) goes. */
const WEBP_IMAGE_CHUNKS = new Set(['VP8 ', 'VP8L', 'VP8X', 'ALPH', 'ANIM', 'ANMF']);

function webpSize(type: string, chunk: Uint8Array): { width: number; height: number } | null {
  const d = chunk.subarray(8);
  if (type === 'VP8X' && d.length >= 10) {
    return {
      width: 1 + (d[4] | (d[5] << 8) | (d[6] << 16)),
      height: 1 + (d[7] | (d[8] << 8) | (d[9] << 16)),
    };
  }
  if (type === 'VP8L' && d.length >= 5 && d[0] === 0x2f) {
    const bits = d[1] | (d[2] << 8) | (d[3] << 16) | (d[4] << 24);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
  }
  if (type === 'VP8 ' && d.length >= 10 && d[3] === 0x9d && d[4] === 0x01 && d[5] === 0x2a) {
    return { width: (d[6] | (d[7] << 8)) & 0x3fff, height: (d[8] | (d[9] << 8)) & 0x3fff };
  }
  return null;
}

/**
 * An animation frame (ANMF: X / 2, Y / 2, width - 1, height - 1 in 24 bits each, duration, flags, then
 * the frame's bitstream) must follow the VP8X canvas it is drawn on and lie inside it, and there may be
 * at most MAX_GIF_FRAMES of them, as for GIF: a viewer decodes every frame, so a small file of thousands
 * of frames, or of frames far outside a small canvas, would cost it far more than the canvas says.
 * Answers the frame's area; the frames together are held to MAX_IMAGE_PIXELS as a GIF's are (300
 * frames of 4000 x 4000 fit a 207 KB file and 4.8 gigapixels of decoding).
 */
function checkWebpFrame(
  d: Uint8Array,
  canvas: { width: number; height: number } | null,
  frame: number,
): number {
  need(canvas !== null, 'WebP has an animation frame before its VP8X header');
  need(frame <= MAX_GIF_FRAMES, `WebP has more than ${MAX_GIF_FRAMES} frames`);
  need(d.length >= 16, 'WebP animation frame header is too short');
  const u24 = (at: number) => d[at] | (d[at + 1] << 8) | (d[at + 2] << 16);
  const x = 2 * u24(0);
  const y = 2 * u24(3);
  need(
    x + 1 + u24(6) <= canvas.width && y + 1 + u24(9) <= canvas.height,
    'WebP animation frame lies outside the image',
  );
  return (1 + u24(6)) * (1 + u24(9));
}

function stripWebp(b: Uint8Array): Uint8Array {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const riffEnd = 8 + view.getUint32(4, true);
  need(riffEnd <= b.length && riffEnd >= 12, 'WebP size field does not match the file');
  const chunks: Uint8Array[] = [];
  let i = 12;
  let size: { width: number; height: number } | null = null;
  let sawImage = false;
  /** The VP8X canvas, which animation frames are drawn on. */
  let canvas: { width: number; height: number } | null = null;
  let frames = 0;
  let framesArea = 0;
  while (i + 8 <= riffEnd) {
    const type = ascii(b, i, 4);
    const length = view.getUint32(i + 4, true);
    const end = i + 8 + length + (length % 2);
    need(end <= riffEnd, 'WebP chunk runs past the end of the file');
    if (WEBP_IMAGE_CHUNKS.has(type)) {
      const chunk = b.slice(i, end);
      // VP8X announces ICC (bit 5), Exif (bit 3) and XMP (bit 2); those chunks are gone, so the flags go too.
      // (An empty VP8X has no byte 8; writing past a typed array's end does nothing.)
      if (type === 'VP8X') chunk[8] &= ~0x2c;
      size ??= webpSize(type, chunk);
      if (type === 'VP8X') canvas ??= webpSize(type, chunk);
      // The frame's data as declared (the chunk as kept may end in a pad byte).
      if (type === 'ANMF') {
        framesArea += checkWebpFrame(chunk.subarray(8, 8 + length), canvas, ++frames);
        if (framesArea > MAX_IMAGE_PIXELS) throw new TooManyPixels(canvas!.width, canvas!.height, framesArea);
      }
      if (type === 'VP8 ' || type === 'VP8L' || type === 'ANMF') sawImage = true;
      chunks.push(chunk);
    }
    i = end;
  }
  need(i === riffEnd, 'WebP has trailing bytes inside its RIFF container');
  need(sawImage && size !== null, 'WebP has no image data');
  checkPixels(size.width, size.height);
  const body = concat(chunks);
  const out = new Uint8Array(12 + body.length);
  out.set(b.subarray(0, 12));
  new DataView(out.buffer).setUint32(4, 4 + body.length, true);
  out.set(body, 12);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Entry points
// ---------------------------------------------------------------------------------------------

/**
 * The image as pixels only: JPEG and PNG reduced to the segments and chunks that decode them, GIF
 * decoded and encoded again, WebP reduced to its image chunks. Throws MalformedImage when the bytes do not parse, TooManyPixels past the pixel limit.
 */
export function cleanImage(bytes: Uint8Array, kind: ImageKind): Uint8Array {
  switch (kind) {
    case 'jpeg':
      return stripJpeg(bytes);
    case 'png':
      return stripPng(bytes);
    case 'webp':
      return stripWebp(bytes);
    case 'gif':
      return reencodeGif(bytes);
  }
}

export interface SafeImage {
  bytes: Uint8Array;
  type: ImageType;
}

/**
 * Checks an uploaded file and returns it cleaned to its pixels, or throws a 400 with a message the user
 * can act on. `label` names the field in messages ('Evidence', 'Avatar', 'News banner'); the refusal's
 * code (`image_*`) names it as `image` ('evidence', 'avatar', 'news_banner') for the app's words.
 */
export async function safeImage(file: Blob, label: string): Promise<SafeImage> {
  const refused = (message: string, code: string, params: Record<string, string> = {}) =>
    new HttpError(400, message, {
      code,
      params: { image: label.toLowerCase().replace(/ /g, '_'), ...params },
    });
  if (file.size > MAX_IMAGE_BYTES) throw refused('Image size too large', 'image_too_large');
  if (file.size === 0) throw refused(`${label} file is empty`, 'image_empty');
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = detectImageType(bytes);
  if (!type)
    throw refused(
      `${label} must be an image (JPEG, PNG, WebP or GIF); this file is not one`,
      'image_not_image',
    );
  let clean: Uint8Array;
  try {
    clean = cleanImage(bytes, type.kind);
  } catch (e) {
    if (e instanceof TooManyPixels)
      throw refused(`${label} is too large in pixels: ${e.message}`, 'image_too_many_pixels');
    if (e instanceof MalformedImage)
      throw refused(
        `${label} is not a valid ${type.kind.toUpperCase()} image: ${e.message}`,
        'image_malformed',
        {
          format: type.kind.toUpperCase(),
        },
      );
    throw e;
  }
  if (clean.length > MAX_IMAGE_BYTES) throw refused('Image size too large', 'image_too_large');
  return { bytes: clean, type };
}

/** A server-chosen object name: `<folder>/<uuid>.<ext>` (the uploader's file name is never used). */
export function objectName(folder: string, type: ImageType): string {
  return `${folder}/${crypto.randomUUID()}.${type.ext}`;
}
