// Unit tests of image.ts, run by `deno test` (supabase/tests/functions/deno.test.ts runs them in CI).
// The hostile files come from supabase/tests/image-corpus.ts, shared with the stack tests.
// @deno-types="npm:@types/omggif@1.0.5"
import { GifReader } from 'npm:omggif@1.0.10';
import * as jpegJs from 'npm:jpeg-js@0.4.4';
import { decode as decodePng } from 'npm:fast-png@8.0.0';
import assert from 'node:assert/strict';
import {
  BASE_JPEG,
  concat,
  contains,
  gifWithPlainText,
  HTML_AS_PNG,
  jpegClaiming,
  jpegWithGpsAndApp0Text,
  leakedMarkers,
  MARKERS,
  png,
  pngBomb,
  pngChunk,
  pngDeflateBomb,
  pngWithTextAndUnknownChunk,
  SVG_AS_PNG,
  webpWithMetadata,
} from '../../tests/image-corpus.ts';
import {
  cleanImage,
  detectImageType,
  jpegSize,
  MAX_IMAGE_BYTES,
  MalformedImage,
  objectName,
  safeImage,
  TooManyPixels,
} from './image.ts';
import { HttpError } from './http.ts';

const enc = new TextEncoder();

/** The JPEG segment markers in order, up to the scan. */
function jpegMarkers(b: Uint8Array): number[] {
  const markers: number[] = [];
  for (let i = 2; i + 4 <= b.length;) {
    const marker = b[i + 1];
    markers.push(marker);
    if (marker === 0xda) break;
    i += 2 + ((b[i + 2] << 8) | b[i + 3]);
  }
  return markers;
}

function pngChunkTypes(b: Uint8Array): string[] {
  const types: string[] = [];
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 8; i + 12 <= b.length; i += 12 + view.getUint32(i))
    types.push(String.fromCharCode(...b.subarray(i + 4, i + 8)));
  return types;
}

Deno.test('detects the four accepted formats by their bytes and nothing else', () => {
  assert.equal(detectImageType(BASE_JPEG)?.kind, 'jpeg');
  assert.equal(detectImageType(png())?.kind, 'png');
  assert.equal(detectImageType(webpWithMetadata())?.kind, 'webp');
  assert.equal(detectImageType(gifWithPlainText())?.kind, 'gif');
  assert.equal(detectImageType(enc.encode('#!/bin/sh\nrm -rf /\n')), null);
  assert.equal(detectImageType(SVG_AS_PNG), null);
  assert.equal(detectImageType(HTML_AS_PNG), null);
  assert.equal(detectImageType(enc.encode('%PDF-1.7')), null);
});

Deno.test(
  'JPEG with GPS Exif, APP0 text, a comment and trailing bytes: only tables, frame and scan left',
  () => {
    const input = jpegWithGpsAndApp0Text();
    assert.deepEqual(leakedMarkers(input), [...MARKERS, 'Exif']);
    const out = cleanImage(input, 'jpeg');
    assert.deepEqual(leakedMarkers(out), []);
    // No application segment at all (not even JFIF's APP0), no comment: DQT, DHT, SOF0, DHT..., SOS.
    assert.deepEqual(jpegMarkers(out), [0xdb, 0xc0, 0xc4, 0xda]);
    assert.deepEqual([...out.subarray(-2)], [0xff, 0xd9]);
    // A real decoder reads the same pixels, bit for bit (nothing was re-encoded).
    const decoded = jpegJs.decode(out, { useTArray: true });
    const original = jpegJs.decode(BASE_JPEG, { useTArray: true });
    assert.deepEqual([decoded.width, decoded.height], [16, 16]);
    assert.deepEqual(decoded.data, original.data);
  },
);

Deno.test('JPEG: Adobe APP14 is written anew from its transform flag only', () => {
  const payload = concat(
    enc.encode('Adobe'),
    [0, 100, 0, 0, 0, 0, 1],
    enc.encode(`${MARKERS[0]} hidden after the flags`),
  );
  const adobe = concat([0xff, 0xee, 0, payload.length + 2], payload);
  const input = concat(BASE_JPEG.subarray(0, 2), adobe, BASE_JPEG.subarray(2));
  const out = cleanImage(input, 'jpeg');
  assert.deepEqual(leakedMarkers(out), []);
  assert.deepEqual(
    [...out.subarray(2, 18)],
    [0xff, 0xee, 0, 14, 0x41, 0x64, 0x6f, 0x62, 0x65, 0, 100, 0, 0, 0, 0, 1],
  );
});

Deno.test('PNG with tEXt, iTXt and an unknown chunk carrying <script>: only IHDR, IDAT, IEND left', () => {
  const out = cleanImage(pngWithTextAndUnknownChunk(), 'png');
  assert.deepEqual(leakedMarkers(out), []);
  assert.deepEqual(pngChunkTypes(out), ['IHDR', 'IDAT', 'IEND']);
  const decoded = decodePng(out);
  assert.deepEqual([decoded.width, decoded.height, decoded.channels], [4, 3, 3]);
  assert.deepEqual([...decoded.data.subarray(0, 6)], [0, 0, 120, 60, 0, 120]);
});

Deno.test('PNG palettes and transparency stay; colour profile, gamma, time and Exif chunks go', () => {
  const palette = png({
    width: 4,
    height: 1,
    colorType: 3,
    depth: 2,
    extra: [
      pngChunk('iCCP', concat(enc.encode(`${MARKERS[0]}\0\0`), [1, 2, 3])),
      pngChunk('gAMA', [0, 0, 177, 143]),
      pngChunk('tIME', [7, 234, 11, 23, 12, 0, 0]),
      pngChunk('eXIf', enc.encode(`MM\0*${MARKERS[2]}`)),
      pngChunk('PLTE', [255, 0, 0, 0, 255, 0, 0, 0, 255]),
      pngChunk('tRNS', [255, 0, 128]),
    ],
    raw: Uint8Array.from([0, 0b00011000]),
  });
  const cleaned = cleanImage(palette, 'png');
  assert.deepEqual(pngChunkTypes(cleaned), ['IHDR', 'PLTE', 'tRNS', 'IDAT', 'IEND']);
  assert.deepEqual(leakedMarkers(cleaned), []);
  const out = decodePng(cleaned, { checkCrc: true });
  const colours = [...(out.data as Uint8Array)].map((b) => b.toString(2).padStart(8, '0')).join('');
  assert.equal(colours, '00011000');
  assert.deepEqual(out.palette, [
    [255, 0, 0, 255],
    [0, 255, 0, 0],
    [0, 0, 255, 128],
  ]);
});

Deno.test(
  'GIF with a plain-text extension, a comment and an XMP block: frames re-encoded, loop and delay kept',
  () => {
    const input = gifWithPlainText();
    assert.deepEqual(leakedMarkers(input), [...MARKERS]);
    const out = cleanImage(input, 'gif');
    assert.deepEqual(leakedMarkers(out), []);
    assert.ok(!contains(out, 'XMP DataXMP'));
    const reader = new GifReader(out);
    assert.equal(reader.numFrames(), 1);
    assert.equal(reader.loopCount(), 0);
    assert.equal(reader.frameInfo(0).delay, 10);
    const pixels = new Uint8Array(2 * 2 * 4);
    reader.decodeAndBlitFrameRGBA(0, pixels);
    assert.deepEqual([...pixels], [0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 255]);
  },
);

Deno.test('WebP: only image chunks stay and VP8X stops announcing Exif and XMP', () => {
  const out = cleanImage(webpWithMetadata(), 'webp');
  assert.deepEqual(leakedMarkers(out), []);
  assert.ok(!contains(out, 'EXIF') && !contains(out, 'XMP '));
  assert.equal(out[20] & 0x2c, 0);
  assert.equal(new DataView(out.buffer, out.byteOffset).getUint32(4, true), out.length - 8);
});

Deno.test('format detection: the shortest signature of each format, and every near miss', () => {
  const bytes = (...parts: (number[] | string)[]) =>
    concat(...parts.map((p) => (typeof p === 'string' ? enc.encode(p) : Uint8Array.from(p))));
  // Exactly the signature's length is enough; one byte fewer is not an image.
  assert.equal(detectImageType(bytes([0xff, 0xd8, 0xff]))?.kind, 'jpeg');
  assert.equal(detectImageType(bytes([0xff, 0xd8])), null);
  const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  assert.equal(detectImageType(bytes(pngSignature))?.kind, 'png');
  assert.equal(detectImageType(bytes(pngSignature.slice(0, 7))), null);
  assert.equal(detectImageType(bytes('RIFF', [0, 0, 0, 0], 'WEBP'))?.kind, 'webp');
  assert.equal(detectImageType(bytes('RIFF', [0, 0, 0, 0], 'WEB')), null);
  assert.equal(detectImageType(bytes('GIF87a'))?.kind, 'gif');
  assert.equal(detectImageType(bytes('GIF89a'))?.kind, 'gif');
  assert.equal(detectImageType(bytes('GIF89')), null);
  // Any one byte of a signature changed is not that format.
  for (let i = 0; i < 3; i++) {
    const b = bytes([0xff, 0xd8, 0xff]);
    b[i] ^= 0x01;
    assert.equal(detectImageType(b), null, `JPEG byte ${i}`);
  }
  for (let i = 0; i < 8; i++) {
    const b = bytes(pngSignature);
    b[i] ^= 0x01;
    assert.equal(detectImageType(b), null, `PNG byte ${i}`);
  }
  assert.equal(detectImageType(bytes('RIFX', [0, 0, 0, 0], 'WEBP')), null);
  assert.equal(detectImageType(bytes('RIFF', [0, 0, 0, 0], 'WAVE')), null);
  assert.equal(detectImageType(bytes('GIF88a')), null);
  assert.equal(detectImageType(bytes('GIF89b')), null);
  // The MIME type and extension go with the format.
  assert.deepEqual(
    [BASE_JPEG, png(), webpWithMetadata(), gifWithPlainText()].map((b) => detectImageType(b)?.mime),
    ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
  );
});

Deno.test('JPEG size: read from the frame header, width and height each from their own bytes', () => {
  assert.deepEqual(jpegSize(jpegClaiming(640, 480)), { width: 640, height: 480 });
  assert.deepEqual(jpegSize(jpegClaiming(0x1234, 0x0567)), { width: 0x1234, height: 0x0567 });
  // Exactly the pixel limit (4,000 x 4,000 = 16,000,000) is not a bomb; one row more is.
  assert.ok(cleanImage(jpegClaiming(4000, 4000), 'jpeg').length > 0);
  assert.throws(
    () => cleanImage(jpegClaiming(4000, 4001), 'jpeg'),
    (e: unknown) => e instanceof TooManyPixels && e.width === 4000 && e.height === 4001,
  );
  // A frame header with no height, or no width, has no pixels.
  assert.throws(() => jpegSize(jpegClaiming(640, 0)), /gives no height/);
  assert.throws(() => cleanImage(jpegClaiming(0, 480), 'jpeg'), /has no pixels/);
});

Deno.test('pixel bombs are refused from their headers, before any decoding', () => {
  const started = performance.now();
  assert.throws(
    () => cleanImage(pngBomb(), 'png'),
    (e: unknown) => e instanceof TooManyPixels && e.width === 50_000,
  );
  assert.throws(
    () => cleanImage(jpegClaiming(60_000, 60_000), 'jpeg'),
    (e: unknown) => e instanceof TooManyPixels && e.height === 60_000,
  );
  // A small header with a stream that inflates past it is stopped while inflating.
  assert.throws(() => cleanImage(pngDeflateBomb(), 'png'), /holds more than its header announces/);
  // Building the 304 KB bomb takes most of this; refusing it takes none.
  assert.ok(performance.now() - started < 20_000);
});

Deno.test('truncated or structureless files are refused', () => {
  assert.throws(
    () => cleanImage(Uint8Array.from([0xff, 0xd8, 0xff, 0xe1, 0x40, 0x00, 1, 2]), 'jpeg'),
    MalformedImage,
  );
  assert.throws(() => cleanImage(Uint8Array.from([0xff, 0xd8, 0xff, 0xd9]), 'jpeg'), MalformedImage);
  assert.throws(() => cleanImage(BASE_JPEG.subarray(0, BASE_JPEG.length - 200), 'jpeg'), MalformedImage);
  const p = png();
  assert.throws(() => cleanImage(p.subarray(0, p.length - 12), 'png'), MalformedImage);
  assert.throws(
    () => cleanImage(concat(p.subarray(0, 8), [0, 0, 39, 15], enc.encode('IHDR'), new Uint8Array(4)), 'png'),
    MalformedImage,
  );
  const g = gifWithPlainText();
  assert.throws(() => cleanImage(g.subarray(0, g.length - 1), 'gif'), MalformedImage);
});

Deno.test(
  'safeImage: oversize, empty, non-image, SVG/HTML as PNG, bombs and broken files get a 400 with a clear message',
  async () => {
    const reject = async (blob: Blob, message: RegExp) => {
      await assert.rejects(
        safeImage(blob, 'Evidence'),
        (e: unknown) => e instanceof HttpError && e.status === 400 && message.test(e.message),
      );
    };
    // docs/behaviour.md §5 and §9: at most 500000 bytes. A PNG of exactly 500000 bytes (a text chunk
    // filling the small image up to the limit, with its 12-byte chunk frame) passes; one byte more does not.
    assert.equal(MAX_IMAGE_BYTES, 500_000);
    const filler = 500_000 - png().length - 12;
    const atLimit = png({ extra: [pngChunk('tEXt', new Uint8Array(filler))] });
    assert.equal(atLimit.length, 500_000);
    assert.equal((await safeImage(new Blob([atLimit]), 'Evidence')).type.kind, 'png');
    await reject(
      new Blob([png({ extra: [pngChunk('tEXt', new Uint8Array(filler + 1))] })]),
      /^Image size too large$/,
    );
    await reject(new Blob([new Uint8Array(500_001)]), /^Image size too large$/);
    await reject(new Blob([]), /empty/);
    await reject(
      new Blob([SVG_AS_PNG], { type: 'image/png' }),
      /^Evidence must be an image \(JPEG, PNG, WebP or GIF\); this file is not one$/,
    );
    await reject(new Blob([HTML_AS_PNG], { type: 'image/png' }), /must be an image/);
    await reject(
      new Blob([jpegClaiming(60_000, 60_000)]),
      /^Evidence is too large in pixels: 60000 x 60000 pixels is more than the 16 megapixels allowed$/,
    );
    await reject(new Blob([Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0])]), /not a valid JPEG/);
    const ok = await safeImage(new Blob([pngWithTextAndUnknownChunk()], { type: 'text/plain' }), 'Avatar');
    assert.equal(ok.type.mime, 'image/png');
    assert.deepEqual(leakedMarkers(ok.bytes), []);
  },
);

Deno.test('objectName is server-chosen: folder, random UUID, real extension', () => {
  const a = objectName('user-1', { kind: 'png', mime: 'image/png', ext: 'png' });
  const b = objectName('user-1', { kind: 'png', mime: 'image/png', ext: 'png' });
  assert.match(a, /^user-1\/[0-9a-f-]{36}\.png$/);
  assert.notEqual(a, b);
});

// ---------------------------------------------------------------------------------------------
// Format by format, from the specs: each chunk or segment kind, each boundary, each error
// ---------------------------------------------------------------------------------------------

const bytesOf = (...parts: (Uint8Array | number[] | string)[]) =>
  concat(...parts.map((p) => (typeof p === 'string' ? enc.encode(p) : p)));
const u16le = (n: number) => [n & 255, (n >>> 8) & 255];
const u24le = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255];
const u32le = (n: number) => [...u16le(n), ...u16le(n >>> 16)];
const u16be = (n: number) => [(n >>> 8) & 255, n & 255];
const u32be = (n: number) => [...u16be(n >>> 16), ...u16be(n)];
const base64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

/** Asserts a MalformedImage with this message. */
function malformed(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof MalformedImage, `not a MalformedImage: ${String(e)}`);
    assert.match(e.message, message);
    return true;
  });
}

/** Asserts a TooManyPixels naming exactly this width and height. */
function tooManyPixels(fn: () => unknown, width: number, height: number): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof TooManyPixels, `not TooManyPixels: ${String(e)}`);
    assert.deepEqual([e.width, e.height], [width, height]);
    return true;
  });
}

// WebP (RIFF container, WebP container spec): chunk = FourCC, 32-bit little-endian length, data, and a
// pad byte when the length is odd; the file = 'RIFF', 4 + the chunks' size, 'WEBP', the chunks.
const riff = (type: string, data: number[] | Uint8Array) =>
  bytesOf(type, u32le(data.length), data, data.length % 2 ? [0] : []);
function webp(...chunks: Uint8Array[]): Uint8Array {
  const body = concat(...chunks);
  return bytesOf('RIFF', u32le(4 + body.length), 'WEBP', body);
}
/** VP8X: flags (ICC 0x20, alpha 0x10, Exif 0x08, XMP 0x04, animation 0x02), 3 reserved bytes, canvas width - 1 and height - 1 in 24 bits. */
const vp8x = (flags: number, width: number, height: number) =>
  riff('VP8X', [flags, 0, 0, 0, ...u24le(width - 1), ...u24le(height - 1)]);
/** A lossless bitstream's header: 0x2f, then width - 1 and height - 1 in 14 bits each, the alpha bit, a 3-bit version. */
const vp8lHeader = (width: number, height: number, alpha = 0) => [
  0x2f,
  ...u32le((width - 1) | ((height - 1) << 14) | (alpha << 28)),
];
/** A lossy key frame's header (RFC 6386 9.1): 3-byte frame tag, start code 9d 01 2a, 14-bit width and height each above 2 scale bits. */
const vp8Header = (width: number, height: number, scale = 0) => [
  0x50,
  0x02,
  0x00,
  0x9d,
  0x01,
  0x2a,
  ...u16le(width | (scale << 14)),
  ...u16le(height | (scale << 14)),
];
const TINY_VP8L = riff('VP8L', vp8lHeader(1, 1));
/** 3 x 2 pixels from sharp (libwebp): lossy (a 'VP8 ' chunk) and lossless (VP8L), no VP8X. */
const SHARP_VP8 = base64(
  'UklGRmQAAABXRUJQVlA4IFgAAADwAgCdASoDAAIAAUAmJagCdLoBQAKoAyQD9AAW7PazAADif/x223wt/87x3gqVDYDzZP/sxvj6yv4U3/5Nl/0xvj6yv4U3/loX3gaxymehwaRA5TOSQAAA',
);
const SHARP_VP8L = base64('UklGRjQAAABXRUJQVlA4TCgAAAAvAkAAAC8gEEjaH3qN+RcQFPk/2vwHH0QCg0K2EeDQvQSncBH9j2MF');

Deno.test('WebP from a real encoder passes unchanged, and the size checked is the one in its header', () => {
  // A simple file is only its image chunk: nothing to take out, not one byte changed.
  assert.deepEqual(cleanImage(SHARP_VP8, 'webp'), SHARP_VP8);
  assert.deepEqual(cleanImage(SHARP_VP8L, 'webp'), SHARP_VP8L);
  // The same files claiming 4000 x 4001: the lossy frame's width and height are the chunk data's bytes
  // 6-9 (the file's 26-29), the lossless header's fields the 4 bytes after its 0x2f signature.
  assert.deepEqual([...SHARP_VP8.subarray(26, 30)], [...u16le(3), ...u16le(2)]);
  const lossy = concat(SHARP_VP8);
  lossy.set([...u16le(4000), ...u16le(4001)], 26);
  tooManyPixels(() => cleanImage(lossy, 'webp'), 4000, 4001);
  assert.deepEqual([...SHARP_VP8L.subarray(20, 25)], vp8lHeader(3, 2));
  const lossless = concat(SHARP_VP8L);
  lossless.set(vp8lHeader(4000, 4001), 20);
  tooManyPixels(() => cleanImage(lossless, 'webp'), 4000, 4001);
});

Deno.test(
  'WebP size: the VP8X canvas when there is one, else the VP8L or VP8 header, each field masked',
  () => {
    // VP8X: 24-bit fields plus one; exactly 16,000,000 pixels pass, one row more does not, whatever the
    // bitstream after it says. The third byte of each field counts (65,541 = 0x010005).
    assert.ok(cleanImage(webp(vp8x(0, 4000, 4000), TINY_VP8L), 'webp').length > 0);
    tooManyPixels(() => cleanImage(webp(vp8x(0, 4000, 4001), TINY_VP8L), 'webp'), 4000, 4001);
    tooManyPixels(() => cleanImage(webp(vp8x(0, 65_541, 300), TINY_VP8L), 'webp'), 65_541, 300);
    tooManyPixels(() => cleanImage(webp(vp8x(0, 300, 65_541), TINY_VP8L), 'webp'), 300, 65_541);
    // A VP8X shorter than its 10 bytes gives no size; the bitstream's header does.
    const shortVp8x = riff('VP8X', [0, 0, 0, 0, 0, 0, 0, 0]);
    tooManyPixels(
      () => cleanImage(webp(shortVp8x, riff('VP8L', vp8lHeader(4000, 4001))), 'webp'),
      4000,
      4001,
    );
    // VP8L alone: 14 bits each (16,384 at most), the alpha bit not part of the height. Ten data bytes, so
    // that reading them as a VP8X would give another size.
    const vp8l = (w: number, h: number, alpha = 0) =>
      webp(riff('VP8L', [...vp8lHeader(w, h, alpha), 0, 0, 0, 0, 0]));
    tooManyPixels(() => cleanImage(vp8l(4000, 4001, 1), 'webp'), 4000, 4001);
    tooManyPixels(() => cleanImage(vp8l(16_384, 977), 'webp'), 16_384, 977);
    assert.ok(cleanImage(vp8l(16_384, 976, 1), 'webp').length > 0);
    // VP8 alone: the two scale bits above each 14-bit field are not part of it.
    tooManyPixels(() => cleanImage(webp(riff('VP8 ', vp8Header(4000, 4001, 3))), 'webp'), 4000, 4001);
    tooManyPixels(() => cleanImage(webp(riff('VP8 ', vp8Header(16_383, 977))), 'webp'), 16_383, 977);
    malformed(() => cleanImage(webp(riff('VP8 ', vp8Header(0, 10))), 'webp'), /^the image has no pixels$/);
    malformed(() => cleanImage(webp(riff('VP8 ', vp8Header(10, 0))), 'webp'), /^the image has no pixels$/);
  },
);

Deno.test('WebP: a bitstream header that is short or has the wrong signature gives no size', () => {
  const noData = /^WebP has no image data$/;
  // 8 of the lossy header's 10 bytes; 4 of the lossless header's 5 (chunk data is padded to even lengths).
  malformed(() => cleanImage(webp(riff('VP8 ', vp8Header(10, 10).slice(0, 8))), 'webp'), noData);
  malformed(() => cleanImage(webp(riff('VP8L', vp8lHeader(10, 10).slice(0, 4))), 'webp'), noData);
  for (const at of [3, 4, 5]) {
    const header = vp8Header(10, 10);
    header[at] ^= 0x01;
    malformed(() => cleanImage(webp(riff('VP8 ', header)), 'webp'), noData);
  }
  const badSignature = vp8lHeader(10, 10);
  badSignature[0] = 0x2e;
  malformed(() => cleanImage(webp(riff('VP8L', badSignature)), 'webp'), noData);
  // A canvas and alpha but no VP8, VP8L or animation frame; a frame with no canvas to size it.
  malformed(() => cleanImage(webp(vp8x(0x10, 2, 2), riff('ALPH', [0, 1])), 'webp'), noData);
  malformed(() => cleanImage(webp(vp8x(0, 2, 2)), 'webp'), noData);
  malformed(() => cleanImage(webp(riff('ANMF', new Uint8Array(16))), 'webp'), noData);
});

Deno.test('WebP chunk walk: RIFF size, chunk lengths, odd padding, trailing bytes', () => {
  const sizeWrong = /^WebP size field does not match the file$/;
  const withSize = (size: number, body: Uint8Array) => bytesOf('RIFF', u32le(size), 'WEBP', body);
  // The RIFF size counts 'WEBP' and the chunks: more than the file, or less than 'WEBP' itself, is wrong.
  malformed(() => cleanImage(withSize(4 + TINY_VP8L.length + 1, TINY_VP8L), 'webp'), sizeWrong);
  malformed(() => cleanImage(withSize(0, TINY_VP8L), 'webp'), sizeWrong);
  malformed(() => cleanImage(withSize(3, TINY_VP8L), 'webp'), sizeWrong);
  malformed(() => cleanImage(withSize(4, TINY_VP8L), 'webp'), /^WebP has no image data$/);
  // A chunk longer than what is left of the container.
  const long = bytesOf('VP8L', u32le(7), vp8lHeader(1, 1), [0]);
  malformed(
    () => cleanImage(withSize(4 + long.length, long), 'webp'),
    /^WebP chunk runs past the end of the file$/,
  );
  // Bytes too few for a chunk header at the end of the container.
  const stray = bytesOf(TINY_VP8L, [1, 2, 3, 4]);
  malformed(
    () => cleanImage(withSize(4 + stray.length, stray), 'webp'),
    /^WebP has trailing bytes inside its RIFF container$/,
  );
  // Odd lengths with their pad bytes, an empty chunk ending the container exactly, and bytes after the
  // container: image chunks keep their padding, the rest goes, and the RIFF size is the new one.
  const secret = enc.encode(MARKERS[0]); // 16 bytes
  const input = bytesOf(
    webp(
      vp8x(0x3e, 1, 1),
      riff('ICCP', [...secret, 1]),
      riff('ALPH', [1, 2, 3]),
      riff('VP8L', vp8lHeader(1, 1)),
      riff('JUNK', []),
    ),
    secret,
  );
  const out = cleanImage(input, 'webp');
  // VP8X keeps alpha and animation (0x12) and drops ICC, Exif and XMP (0x2c).
  assert.deepEqual(out, webp(vp8x(0x12, 1, 1), riff('ALPH', [1, 2, 3]), riff('VP8L', vp8lHeader(1, 1))));
  assert.deepEqual([...out.subarray(4, 8)], u32le(4 + 18 + 12 + 14));
  assert.deepEqual(leakedMarkers(out), []);
  // An empty VP8X has no flags byte to clear.
  assert.deepEqual(cleanImage(webp(riff('VP8X', []), TINY_VP8L), 'webp'), webp(riff('VP8X', []), TINY_VP8L));
});

Deno.test('WebP animation: VP8X, ANIM and ANMF frames stay as they are', () => {
  const frame = bytesOf(u24le(0), u24le(0), u24le(1), u24le(1), u24le(100), [0], TINY_VP8L);
  const animated = webp(
    vp8x(0x02, 2, 2),
    riff('ANIM', [0xff, 0xff, 0xff, 0xff, ...u16le(0)]),
    riff('ANMF', frame),
    riff('EXIF', enc.encode(MARKERS[2])),
    riff('ANMF', frame),
  );
  assert.deepEqual(
    cleanImage(animated, 'webp'),
    webp(
      vp8x(0x02, 2, 2),
      riff('ANIM', [0xff, 0xff, 0xff, 0xff, ...u16le(0)]),
      riff('ANMF', frame),
      riff('ANMF', frame),
    ),
  );
});
