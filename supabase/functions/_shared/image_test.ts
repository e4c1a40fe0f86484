// Unit tests of image.ts, run by `deno test` (supabase/tests/functions/deno.test.ts runs them in CI).
// The hostile files come from supabase/tests/image-corpus.ts, shared with the stack tests.
// @deno-types="npm:@types/omggif@1.0.5"
import { GifReader } from 'npm:omggif@1.0.10';
import * as jpegJs from 'npm:jpeg-js@0.4.4';
import { decode as decodePng } from 'npm:fast-png@8.0.0';
import assert from 'node:assert/strict';
import { deflateSync, inflateSync } from 'node:zlib';
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
  MAX_GIF_FRAMES,
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
/** 4 x 3 pixels, two frames, from sharp (libwebp) given a two-frame GIF: VP8X, ANIM and two ANMF. */
const SHARP_ANIMATED = base64(
  'UklGRoYAAABXRUJQVlA4WAoAAAASAAAAAwAAAgAAQU5JTQYAAAD/////AABBTk1GKAAAAAAAAAAAAAMAAAIAAGQAAAJWUDhMDwAAAC8DgAAABxD9j/4HIqL/AQBBTk1GKgAAAAAAAAAAAAIAAAIAAGQAAABWUDhMEQAAAC8CgAAQDzD/EfMfjDGI6H8YAA==',
);
/** An animation frame: X / 2, Y / 2, width - 1, height - 1 (24 bits each), duration, flags, its bitstream. */
const anmf = (x: number, y: number, width: number, height: number) =>
  riff('ANMF', [
    ...u24le(x / 2),
    ...u24le(y / 2),
    ...u24le(width - 1),
    ...u24le(height - 1),
    100,
    0,
    0,
    0,
    ...TINY_VP8L,
  ]);
const anim = riff('ANIM', [0, 0, 0, 0, 0, 0]);

Deno.test(
  'animated WebP: frames inside the canvas pass, at most MAX_GIF_FRAMES of them, after the VP8X',
  () => {
    assert.deepEqual(cleanImage(SHARP_ANIMATED, 'webp'), SHARP_ANIMATED);
    // Frames that fill the canvas exactly, at its origin and at its far corner.
    assert.ok(
      cleanImage(webp(vp8x(0x02, 10, 6), anim, anmf(0, 0, 10, 6), anmf(8, 4, 2, 2)), 'webp').length > 0,
    );
    const outside = /^WebP animation frame lies outside the image$/;
    malformed(() => cleanImage(webp(vp8x(0x02, 10, 6), anim, anmf(0, 0, 11, 6)), 'webp'), outside);
    malformed(() => cleanImage(webp(vp8x(0x02, 10, 6), anim, anmf(0, 0, 10, 7)), 'webp'), outside);
    malformed(() => cleanImage(webp(vp8x(0x02, 10, 6), anim, anmf(2, 0, 9, 6)), 'webp'), outside);
    malformed(() => cleanImage(webp(vp8x(0x02, 10, 6), anim, anmf(0, 2, 10, 5)), 'webp'), outside);
    // A small canvas cannot hide a huge frame (the 24-bit fields reach 16.7 million pixels a side).
    malformed(() => cleanImage(webp(vp8x(0x02, 1, 1), anim, anmf(0, 0, 1 << 24, 1 << 24)), 'webp'), outside);
    // No canvas to draw on: the frame comes first, or after a plain VP8L.
    malformed(
      () => cleanImage(webp(anmf(0, 0, 1, 1), vp8x(0x02, 1, 1)), 'webp'),
      /^WebP has an animation frame before its VP8X header$/,
    );
    malformed(
      () => cleanImage(webp(TINY_VP8L, anmf(0, 0, 1, 1)), 'webp'),
      /^WebP has an animation frame before its VP8X header$/,
    );
    malformed(
      () =>
        cleanImage(
          webp(vp8x(0x02, 1, 1), riff('ANMF', [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])),
          'webp',
        ),
      /^WebP animation frame header is too short$/,
    );
    const frames = (n: number) =>
      webp(vp8x(0x02, 2, 2), anim, ...Array.from({ length: n }, () => anmf(0, 0, 2, 2)));
    assert.ok(cleanImage(frames(MAX_GIF_FRAMES), 'webp').length > 0);
    malformed(() => cleanImage(frames(MAX_GIF_FRAMES + 1), 'webp'), /^WebP has more than 300 frames$/);
  },
);

Deno.test("animated WebP: the frames together are held to MAX_IMAGE_PIXELS, as a GIF's are", () => {
  // The probe's bomb: 300 frames of 4000 x 4000 on a 4000 x 4000 canvas (4.8 gigapixels to decode).
  const bomb = webp(
    vp8x(0x02, 4000, 4000),
    anim,
    ...Array.from({ length: 300 }, () => anmf(0, 0, 4000, 4000)),
  );
  assert.ok(bomb.length < 20_000);
  assert.throws(
    () => cleanImage(bomb, 'webp'),
    (e: unknown) =>
      e instanceof TooManyPixels &&
      e.framesArea === 32_000_000 &&
      /frames hold 32 megapixels/.test(e.message),
  );
  // Exactly 16,000,000 pixels of frames pass; one pixel more does not.
  const four = Array.from({ length: 4 }, () => anmf(0, 0, 2000, 2000));
  assert.ok(cleanImage(webp(vp8x(0x02, 2000, 2000), anim, ...four), 'webp').length > 0);
  assert.throws(
    () => cleanImage(webp(vp8x(0x02, 2000, 2000), anim, ...four, anmf(0, 0, 1, 1)), 'webp'),
    (e: unknown) => e instanceof TooManyPixels && e.framesArea === 16_000_001,
  );
});

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

Deno.test(
  'WebP size comes only from a chunk of its own kind: alpha data that looks like a header does not count',
  () => {
    // No VP8X: an ALPH chunk before the bitstream whose bytes read like a VP8L header (0x2f first) or a
    // VP8 one (9d 01 2a at 3) claiming 4000 x 4001; the 1 x 1 VP8L after it is the size.
    for (const alpha of [vp8lHeader(4000, 4001), vp8Header(4000, 4001)])
      assert.ok(cleanImage(webp(riff('ALPH', alpha), TINY_VP8L), 'webp').length > 0);
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
  malformed(
    () => cleanImage(webp(riff('ANMF', new Uint8Array(16))), 'webp'),
    /^WebP has an animation frame before its VP8X header$/,
  );
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

// JPEG (ITU T.81 B.1): a marker is FF and a code, after any number of FF fill bytes; every segment but
// SOI, EOI, RST0-7 and TEM has a 16-bit big-endian length that counts itself; entropy-coded data
// follows a scan header up to the next marker that is not a stuffed FF 00 or a restart marker.
const SOI = [0xff, 0xd8];
const EOI = [0xff, 0xd9];
const segment = (marker: number, payload: number[] | Uint8Array) =>
  bytesOf([0xff, marker], u16be(payload.length + 2), payload);
/** A frame header: precision 8, height, width, one component (id 1, sampling 1 x 1, table 0). */
const frame = (marker: number, width: number, height: number) =>
  segment(marker, [8, ...u16be(height), ...u16be(width), 1, 1, 0x11, 0]);
/** A scan header: one component (id 1, tables 0 and 0), spectral selection 0-63, no approximation. */
const SCAN = segment(0xda, [1, 1, 0x00, 0, 63, 0]);
const SOF0 = frame(0xc0, 16, 8);
const DQT = segment(0xdb, [0, ...new Uint8Array(64).fill(1)]);
const DHT = segment(0xc4, [0x00, 1, ...new Uint8Array(15), 0]);
const DRI = segment(0xdd, u16be(4));
/** A progressive 16 x 16 JPEG from sharp (mozjpeg): SOF2, several scans with Huffman tables between them. */
const SHARP_PROGRESSIVE = base64(
  '/9j/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBT/wgARCAAQABADASIAAhEBAxEB/8QAFgABAQEAAAAAAAAAAAAAAAAAAwEC/8QAFAEBAAAAAAAAAAAAAAAAAAAAAP/aAAwDAQACEAMQAAABHT0//8QAGRABAQEAAwAAAAAAAAAAAAAAAgMEARES/9oACAEBAAEFAomeZbOuXYtHL6qP/8QAFhEAAwAAAAAAAAAAAAAAAAAAAAFh/9oACAEDAQE/AYj/xAAYEQACAwAAAAAAAAAAAAAAAAAAMXHR8P/aAAgBAgEBPwFTqP/EACUQAAICAQIFBQEAAAAAAAAAAAECAwQSABMhIjFRchEyQWNxgf/aAAgBAQAGPwLbqpCpWTgtCvutj5tyH+acWdvOGTLG9OZWAbtCvt6jp8aCz7irYT0Av2Frxkj614MOnbSipmweMrt0auAB8pOYfo7a/8QAHRABAQACAQUAAAAAAAAAAAAAAREhMQBBUWGBsf/aAAgBAQABPyFgIjkMKDhQSsNNGTkUP1eMamu4eGS4MYYbrQZsV94SBEdnC5lu1mUHf//aAAwDAQACAAMAAAAQ+//EABoRAAIDAQEAAAAAAAAAAAAAAAERITFBAFH/2gAIAQMBAT8QgKEnasetajUAVI7/xAAbEQEAAgIDAAAAAAAAAAAAAAABESEAUXGBsf/aAAgBAgEBPxBZWT4rtB5XvP/EABgQAQEBAQEAAAAAAAAAAAAAAAERIQAx/9oACAEBAAE/ENAV4YHXYPMsABFCi6dePKG8zwH5fHmIx1GgpUU4oHOZwwnlyJhBz//Z',
);

Deno.test('JPEG size: markers without a length and segments that are not frames are stepped over', () => {
  const nine = new Uint8Array(9);
  // An empty APP0, DHT, JPG (C8), DAC (CC) and a reserved marker (BE) with 9 zero bytes each (as a frame
  // they would have no height), RST0, RST7 and TEM with no length, fill bytes, then a 7-byte frame header
  // (no components) that ends the file.
  const input = bytesOf(
    SOI,
    segment(0xe0, []),
    segment(0xc4, nine),
    segment(0xc8, nine),
    segment(0xcc, nine),
    segment(0xbe, nine),
    [0xff, 0xd0, 0xff, 0xd7, 0xff, 0x01, 0xff, 0xff],
    segment(0xc0, [8, ...u16be(480), ...u16be(640)]),
  );
  assert.deepEqual(jpegSize(input), { width: 640, height: 480 });
  // Every start-of-frame marker gives the size, the supported ones (C0-C2) and the others alike.
  for (const marker of [0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf])
    assert.deepEqual(
      jpegSize(bytesOf(SOI, frame(marker, 300, 200))),
      { width: 300, height: 200 },
      `${marker}`,
    );
});

Deno.test('JPEG size: each malformed header has its own error', () => {
  malformed(
    () => jpegSize(bytesOf(SOI, [0x12, 0x34, 0, 8], SOF0)),
    /^JPEG segment does not start with a marker$/,
  );
  malformed(() => jpegSize(bytesOf(SOI, segment(0xe0, [0, 0]))), /^JPEG has no frame header$/);
  malformed(() => jpegSize(bytesOf(SOI, EOI, [0, 0])), /^JPEG has no frame header before its image data$/);
  malformed(() => jpegSize(bytesOf(SOI, SCAN, SOF0)), /^JPEG has no frame header before its image data$/);
  malformed(() => jpegSize(bytesOf(SOI, [0xff, 0xff, 0xff, 0xc0, 0])), /^JPEG ends inside a segment header$/);
  // A frame header's length of 2 (the length alone) and of 6 (one byte short of the width).
  malformed(() => jpegSize(bytesOf(SOI, [0xff, 0xff, 0xc0, 0, 2])), /^JPEG frame header is too short$/);
  malformed(() => jpegSize(bytesOf(SOI, [0xff, 0xc0, 0, 2])), /^JPEG frame header is too short$/);
  malformed(() => jpegSize(bytesOf(SOI, segment(0xc0, [8, 0, 16, 0]), [0, 0, 0, 0])), /too short$/);
  // A length of 1 (less than itself), and one past the end of the file.
  const pastEnd = /^JPEG segment length runs past the end of the file$/;
  malformed(() => jpegSize(bytesOf(SOI, [0xff, 0xe0, 0, 1], SOF0)), pastEnd);
  malformed(() => jpegSize(bytesOf(SOI, [0xff, 0xe0, 0, 9, 1, 2, 3, 4, 5, 6])), pastEnd);
});

Deno.test('JPEG: tables, frame, restart interval and scans are copied; entropy data byte for byte', () => {
  const hidden = enc.encode(MARKERS[0]);
  // Stuffed FF 00, restart markers RST0 and RST7, fill bytes before RST3 and before EOI.
  const data = [0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56, 0xff, 0xd7, 0x78, 0xff, 0xff, 0xd3, 0x9a, 0xff];
  const input = bytesOf(
    SOI,
    segment(0xe0, []),
    DQT,
    SOF0,
    segment(0xc8, hidden),
    segment(0xcc, hidden),
    segment(0xbe, hidden),
    segment(0x02, hidden),
    DHT,
    DRI,
    SCAN,
    data,
    EOI,
  );
  assert.deepEqual(cleanImage(input, 'jpeg'), bytesOf(SOI, DQT, SOF0, DHT, DRI, SCAN, data, EOI));
  // Progressive: scans with tables between them; a segment after the last scan's data is not data.
  const progressive = bytesOf(SOI, frame(0xc2, 16, 8), DHT, SCAN, [1, 2, 3], DHT, SCAN, [4, 5]);
  assert.deepEqual(
    cleanImage(bytesOf(progressive, segment(0xc8, hidden), segment(0xfe, hidden), EOI), 'jpeg'),
    bytesOf(progressive, EOI),
  );
  // Extended sequential (SOF1) is kept as well.
  assert.deepEqual(
    cleanImage(bytesOf(SOI, frame(0xc1, 4, 4), SCAN, [7], EOI), 'jpeg'),
    bytesOf(SOI, frame(0xc1, 4, 4), SCAN, [7], EOI),
  );
  // A real progressive file has nothing to take out: it comes back whole and decodes to the same pixels.
  const out = cleanImage(SHARP_PROGRESSIVE, 'jpeg');
  assert.deepEqual(out, SHARP_PROGRESSIVE);
  assert.deepEqual(jpegSize(out), { width: 16, height: 16 });
  const decoded = jpegJs.decode(out, { useTArray: true });
  assert.equal(decoded.data.length, 16 * 16 * 4);
});

Deno.test('JPEG: Adobe APP14 is rewritten only from a whole Adobe segment, with a known transform', () => {
  const app14 = (name: string, transform: number[], marker = 0xee) =>
    segment(marker, bytesOf(name, [0, 100, 0, 0, 0, 0], transform));
  const written = (transform: number) =>
    bytesOf([0xff, 0xee, 0, 14], 'Adobe', [0, 100, 0, 0, 0, 0, transform]);
  const body = bytesOf(SOF0, SCAN, [1, 2], EOI);
  const clean = (app: Uint8Array) => cleanImage(bytesOf(SOI, app, body), 'jpeg');
  // Transforms 0 (RGB/CMYK), 1 (YCbCr) and 2 (YCCK) are kept; anything else is written as 0.
  assert.deepEqual(clean(app14('Adobe', [2])), bytesOf(SOI, written(2), body));
  assert.deepEqual(clean(app14('Adobe', [0])), bytesOf(SOI, written(0), body));
  assert.deepEqual(clean(app14('Adobe', [3])), bytesOf(SOI, written(0), body));
  // Not Adobe's, not APP14, or one byte short of the flag: nothing is written.
  assert.deepEqual(clean(app14('Adobf', [1])), bytesOf(SOI, body));
  assert.deepEqual(clean(app14('Adobe', [1], 0xed)), bytesOf(SOI, body));
  assert.deepEqual(clean(app14('Adobe', [])), bytesOf(SOI, body));
});

Deno.test('JPEG: each malformed segment walk has its own error', () => {
  const head = bytesOf(SOI, SOF0);
  const clean =
    (...parts: (Uint8Array | number[])[]) =>
    () =>
      cleanImage(bytesOf(head, ...parts), 'jpeg');
  const noEnd = /^JPEG ends without an end-of-image marker$/;
  malformed(clean(EOI), /^JPEG has no image data$/);
  malformed(clean(), noEnd);
  malformed(clean([0x00, 0xff, 0xd9]), /^JPEG segment does not start with a marker$/);
  malformed(clean([0xff, 0xff]), /^JPEG ends inside a marker$/);
  // SOI again, a stuffed 00, TEM and restart markers outside entropy-coded data.
  for (const marker of [0xd8, 0x00, 0x01, 0xd0, 0xd7])
    malformed(clean([0xff, marker]), /^JPEG has an unexpected marker$/);
  malformed(clean([0xff, 0xe0]), /^JPEG ends inside a segment header$/);
  malformed(clean([0xff, 0xe0, 0, 2]), noEnd);
  malformed(clean([0xff, 0xe0, 0, 4, 1, 2]), noEnd);
  const pastEnd = /^JPEG segment length runs past the end of the file$/;
  malformed(clean([0xff, 0xe0, 0, 1, 0, 0], EOI), pastEnd);
  malformed(clean([0xff, 0xe0, 0, 9, 1, 2], EOI), pastEnd);
  malformed(clean(SOF0, SCAN, [1], EOI), /^JPEG has more than one frame$/);
  malformed(
    () => cleanImage(bytesOf(SOI, frame(0xc2, 16, 8), SOF0, SCAN, [1], EOI), 'jpeg'),
    /^JPEG has more than one frame$/,
  );
  // Entropy-coded data that runs to the end, with or without a last FF.
  malformed(clean(SCAN, [1, 2, 3]), noEnd);
  malformed(clean(SCAN, [1, 2, 0xff]), noEnd);
  // Lossless, hierarchical and arithmetic-coded frames (C3, C5-C7, C9-CB, CD-CF).
  for (const marker of [0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf])
    malformed(
      () => cleanImage(bytesOf(SOI, frame(marker, 16, 8), SCAN, [1], EOI), 'jpeg'),
      /^JPEG uses a lossless, hierarchical or arithmetic-coded frame, which is not supported$/,
    );
});

Deno.test('JPEG: a frame header hidden behind TEM is not a way past the pixel limit', () => {
  // jpegSize steps over TEM (FF 01, no length). Read with a length (FF C0 = 65,472 bytes), TEM would hide
  // the 1 x 1 frame that jpegSize checks and leave the 60,000 x 60,000 one after it as the frame kept.
  const small = frame(0xc0, 1, 1);
  const hiding = bytesOf([0xff, 0x01], small, new Uint8Array(0xffc0 - small.length));
  const input = bytesOf(SOI, hiding, frame(0xc0, 60_000, 60_000), SCAN, [1], EOI);
  assert.deepEqual(jpegSize(input), { width: 1, height: 1 });
  malformed(() => cleanImage(input, 'jpeg'), /^JPEG has an unexpected marker$/);
});

// PNG (ISO/IEC 15948): signature, then chunks of a 32-bit big-endian length, a 4-letter type, data
// and a CRC; IHDR first (13 bytes: width, height, bit depth, colour type, compression, filter,
// interlace), IEND last. The image data inflates to one filter byte and ceil(width x bits per pixel
// / 8) bytes per row, per Adam7 pass when interlaced.
const PNG_HEAD_LENGTH = 33; // signature and IHDR
const ihdr = (width: number, height: number, depth: number, colorType: number, interlace = 0) =>
  pngChunk('IHDR', [...u32be(width), ...u32be(height), depth, colorType, 0, 0, interlace]);
const IEND = pngChunk('IEND', []);
const pngOf = (...chunks: Uint8Array[]) =>
  bytesOf([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], ...chunks);
/** 3 x 2 RGB, Adam7-interlaced, from sharp (libpng), with a pHYs chunk. */
const SHARP_INTERLACED_PNG = base64(
  'iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAFlEcHbAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAFElEQVQImWP4zwAC/yEIjP8z/AcATcgI+Mi7HpAAAAAASUVORK5CYII=',
);

Deno.test('PNG image data: exactly what IHDR announces passes, one byte more does not', () => {
  const more = /^PNG image data holds more than its header announces$/;
  // [width, height, bit depth, colour type, interlace, bytes], each computed by hand from the spec.
  const cases: [number, number, number, number, number, number][] = [
    [5, 3, 1, 0, 0, 3 * (1 + 1)], // grey, 1 bit: 5 bits round up to a byte
    [3, 2, 16, 0, 0, 2 * (1 + 6)], // grey, 16 bits
    [4, 3, 8, 2, 0, 3 * (1 + 12)], // RGB
    [2, 2, 16, 2, 0, 2 * (1 + 12)], // RGB, 16 bits
    [3, 2, 4, 3, 0, 2 * (1 + 2)], // palette, 4 bits: 12 bits are 2 bytes
    [3, 2, 8, 4, 0, 2 * (1 + 6)], // grey and alpha
    [3, 2, 8, 6, 0, 2 * (1 + 12)], // RGBA
    [1, 1, 8, 2, 1, 1 + 3], // Adam7, 1 x 1: only pass 1 has pixels
    // Adam7, 8 x 8 RGB: passes of 1x1, 1x1, 2x1, 2x2, 4x2, 4x4 and 8x4 pixels.
    [8, 8, 8, 2, 1, 4 + 4 + 7 + 2 * 7 + 2 * 13 + 4 * 13 + 4 * 25],
    // Adam7, 5 x 3 grey 1 bit: passes of 1x1, 1x1, none (row 4 is past the end), 1x1, 3x1, 2x2, 5x1.
    [5, 3, 1, 0, 1, 2 + 2 + 2 + 2 + 2 * 2 + 2],
  ];
  for (const [width, height, depth, colorType, interlace, size] of cases) {
    const file = (n: number) =>
      pngOf(
        ihdr(width, height, depth, colorType, interlace),
        pngChunk('IDAT', deflateSync(new Uint8Array(n))),
        IEND,
      );
    const name = `${width}x${height}, depth ${depth}, type ${colorType}, interlace ${interlace}`;
    assert.deepEqual(cleanImage(file(size), 'png'), file(size), name);
    malformed(() => cleanImage(file(size + 1), 'png'), more);
  }
  // A real encoder's interlaced 3 x 2 image inflates to what the same count gives: passes 1, 4, 6 and
  // 7 (1x1, 1x1, 1x1, 3x1), 4 + 4 + 4 + 10 bytes. Only its pHYs chunk goes.
  const idat = SHARP_INTERLACED_PNG.subarray(PNG_HEAD_LENGTH + 21, SHARP_INTERLACED_PNG.length - 12);
  assert.equal(String.fromCharCode(...idat.subarray(4, 8)), 'IDAT');
  assert.equal(inflateSync(idat.subarray(8, idat.length - 4)).length, 22);
  assert.deepEqual(
    cleanImage(SHARP_INTERLACED_PNG, 'png'),
    bytesOf(SHARP_INTERLACED_PNG.subarray(0, PNG_HEAD_LENGTH), idat, IEND),
  );
});

Deno.test('PNG header: IHDR first, 13 bytes, and a size that has pixels', () => {
  const p = png();
  const notIhdr = /^PNG does not start with IHDR$/;
  // Signature and IHDR alone are enough to read the header (and then there is no IEND); one byte less is not.
  malformed(() => cleanImage(p.subarray(0, PNG_HEAD_LENGTH), 'png'), /^PNG ends without an IEND chunk$/);
  malformed(() => cleanImage(p.subarray(0, PNG_HEAD_LENGTH - 1), 'png'), notIhdr);
  const renamed = concat(p);
  renamed.set(enc.encode('IHDx'), 12);
  malformed(() => cleanImage(renamed, 'png'), notIhdr);
  const longer = pngOf(
    pngChunk('IHDR', [...u32be(4), ...u32be(3), 8, 2, 0, 0, 0, 0]),
    p.subarray(PNG_HEAD_LENGTH),
  );
  malformed(() => cleanImage(longer, 'png'), notIhdr);
  malformed(() => cleanImage(png({ width: 0 }), 'png'), /^the image has no pixels$/);
  malformed(() => cleanImage(png({ height: 0 }), 'png'), /^the image has no pixels$/);
  tooManyPixels(
    () =>
      cleanImage(png({ width: 4000, height: 4001, colorType: 0, depth: 1, raw: new Uint8Array(1) }), 'png'),
    4000,
    4001,
  );
});

Deno.test('PNG chunk walk: each malformed chunk has its own error; nothing after IEND is kept', () => {
  const p = png();
  const head = p.subarray(0, PNG_HEAD_LENGTH);
  const idat = p.subarray(PNG_HEAD_LENGTH, p.length - IEND.length);
  const clean =
    (...chunks: (Uint8Array | number[] | string)[]) =>
    () =>
      cleanImage(bytesOf(head, ...chunks), 'png');
  // Letters only, either case.
  malformed(clean(pngChunk('IH1R', []), idat, IEND), /^PNG chunk has an invalid type$/);
  malformed(clean(pngChunk('ID T', []), idat, IEND), /^PNG chunk has an invalid type$/);
  assert.deepEqual(cleanImage(bytesOf(head, pngChunk('zzZZ', [1]), idat, IEND), 'png'), p);
  malformed(clean(u32be(100), 'IDAT', [1, 2, 3, 4]), /^PNG chunk runs past the end of the file$/);
  // 10 bytes announced, 4 there (and no CRC): short by 10, less than a chunk header and CRC.
  malformed(clean(u32be(10), 'IDAT', [1, 2, 3, 4]), /^PNG chunk runs past the end of the file$/);
  malformed(
    clean(pngChunk('IDAT', [1, 2, 3, 4, 5, 6, 7, 8]), IEND),
    /^PNG image data is not a valid zlib stream$/,
  );
  malformed(clean(IEND), /^PNG has no image data$/);
  malformed(clean(idat), /^PNG ends without an IEND chunk$/);
  assert.deepEqual(cleanImage(bytesOf(p, enc.encode(MARKERS[1])), 'png'), p);
});

// GIF89a: header, logical screen (width, height little-endian, flags: global colour table 0x80 of
// 2^(n+1) colours for n = flags & 7), the table, then blocks: 0x2C image (descriptor, optional local
// table, LZW data in sub-blocks), 0x21 extensions (label, sub-blocks), 0x3B the trailer.
const RED = [255, 0, 0];
const GREEN = [0, 255, 0];
const BLUE = [0, 0, 255];
const WHITE = [255, 255, 255];
const opaque = (rgb: number[]) => [...rgb, 255];
const NONE = [0, 0, 0, 0];
const TRAILER = [0x3b];
const tableFlags = (colours: number[]) => 0x80 | (Math.log2(colours.length / 3) - 1);
function gifSubBlocks(data: number[] | Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < data.length; i += 255) {
    const part = [...data.slice(i, i + 255)];
    out.push(part.length, ...part);
  }
  return [...out, 0];
}
/**
 * LZW image data (GIF89a appendix F) written the plain way: every index its own code, minimum code
 * size + 1 bits wide, a clear code every 8 codes so the table never grows a bit, codes packed from
 * the lowest bit, in sub-blocks.
 */
function lzw(indices: number[], minCodeSize = 4): number[] {
  const clear = 1 << minCodeSize;
  const codes = [clear];
  indices.forEach((index, k) => codes.push(...(k > 0 && k % 8 === 0 ? [clear, index] : [index])));
  codes.push(clear + 1);
  const packed: number[] = [];
  let bits = 0;
  let pending = 0;
  for (const code of codes) {
    pending |= code << bits;
    bits += minCodeSize + 1;
    for (; bits >= 8; bits -= 8, pending >>>= 8) packed.push(pending & 255);
  }
  if (bits > 0) packed.push(pending & 255);
  return [minCodeSize, ...gifSubBlocks(packed)];
}
const gifOf = (
  width: number,
  height: number,
  global: number[] | null,
  ...blocks: (number[] | Uint8Array)[]
) =>
  bytesOf(
    'GIF89a',
    u16le(width),
    u16le(height),
    [global ? tableFlags(global) : 0, 0, 0],
    global ?? [],
    ...blocks,
    TRAILER,
  );
const image = (
  x: number,
  y: number,
  w: number,
  h: number,
  indices: number[],
  local?: number[],
  minCodeSize = 4,
) =>
  bytesOf(
    [0x2c, ...u16le(x), ...u16le(y), ...u16le(w), ...u16le(h), local ? tableFlags(local) : 0],
    local ?? [],
    lzw(indices, minCodeSize),
  );
/** Graphic control: disposal in bits 2-4, the transparency flag in bit 0, delay, transparent index. */
const control = (delay: number, transparent: number | null, disposal = 0) => [
  0x21,
  0xf9,
  4,
  (disposal << 2) | (transparent === null ? 0 : 1),
  ...u16le(delay),
  transparent ?? 0,
  0,
];
/** Each frame of a GIF drawn alone on a transparent screen, as RGBA pixels. */
function gifFrames(b: Uint8Array): number[][] {
  const reader = new GifReader(b);
  return Array.from({ length: reader.numFrames() }, (_, f) => {
    const pixels = new Uint8Array(reader.width * reader.height * 4);
    reader.decodeAndBlitFrameRGBA(f, pixels);
    return [...pixels];
  });
}

Deno.test('GIF: a local colour table, no global one, a screen wider than tall', () => {
  // 3 x 2, no global table, one frame with a local table of 4 colours (flags 0x81).
  const input = gifOf(
    3,
    2,
    null,
    image(0, 0, 3, 2, [3, 2, 1, 0, 1, 2], [...BLUE, ...RED, ...GREEN, ...WHITE]),
  );
  const out = cleanImage(input, 'gif');
  const reader = new GifReader(out);
  assert.deepEqual([reader.width, reader.height, reader.numFrames(), reader.loopCount()], [3, 2, 1, null]);
  assert.deepEqual(gifFrames(out), [[WHITE, GREEN, RED, BLUE, RED, GREEN].flatMap(opaque)]);
  assert.deepEqual(gifFrames(out), gifFrames(input));
});

Deno.test('GIF: frames at an offset, transparency, a colour listed twice, delay, disposal and loop', () => {
  // Frame 1 paints the 3 x 3 screen red. Frame 2, at (1, 1), 2 x 2, lists red twice: index 1 opaque and
  // index 2 its transparent colour. Its transparent pixels stay transparent (not frame 1's red), its red
  // pixel stays opaque.
  const input = gifOf(
    3,
    3,
    [...RED, ...GREEN],
    [0x21, 0xff, 11, ...enc.encode('NETSCAPE2.0'), 3, 1, ...u16le(5), 0],
    control(20, null, 1),
    image(0, 0, 3, 3, new Array(9).fill(0)),
    control(7, 2, 2),
    image(1, 1, 2, 2, [2, 1, 0, 2], [...GREEN, ...RED, ...RED, ...BLUE]),
  );
  const out = cleanImage(input, 'gif');
  const reader = new GifReader(out);
  assert.equal(reader.loopCount(), 5);
  const info = [0, 1].map((f) => reader.frameInfo(f));
  assert.deepEqual(
    info.map((i) => [i.x, i.y, i.width, i.height, i.delay, i.disposal, i.transparent_index !== null]),
    [
      [0, 0, 3, 3, 20, 1, false],
      [1, 1, 2, 2, 7, 2, true],
    ],
  );
  const [first, second] = gifFrames(out);
  assert.deepEqual(first, new Array(9).fill(opaque(RED)).flat());
  assert.deepEqual(second, [NONE, NONE, NONE, NONE, NONE, opaque(RED), NONE, opaque(GREEN), NONE].flat());
  assert.deepEqual(gifFrames(out), gifFrames(input));
});

Deno.test('GIF extensions: only graphic control and the NETSCAPE loop reach the decoder', () => {
  const head = (...blocks: number[][]) =>
    gifOf(2, 1, [...RED, ...BLUE], ...blocks, image(0, 0, 2, 1, [1, 0]));
  const plain = [opaque(BLUE), opaque(RED)].flat();
  // Plain text (0x01), whose first sub-block even reads 'NETSCAPE2.0': omggif's reader refuses that label.
  const plainText = [0x21, 0x01, 11, ...enc.encode('NETSCAPE2.0'), 3, 1, 5, 0, 0];
  // An application block of 12 bytes starting 'NETSCAPE2.0', and another application's loop block.
  const notNetscape = [0x21, 0xff, 12, ...enc.encode('NETSCAPE2.0X'), 3, 1, 5, 0, 0];
  const animExts = [0x21, 0xff, 11, ...enc.encode('ANIMEXTS1.0'), 3, 1, 5, 0, 0];
  for (const block of [plainText, notNetscape, animExts]) {
    const out = cleanImage(head(block), 'gif');
    assert.equal(new GifReader(out).loopCount(), null);
    assert.deepEqual(gifFrames(out), [plain]);
  }
  // A graphic control block omggif cannot read (5 bytes instead of 4).
  malformed(
    () => cleanImage(head([0x21, 0xf9, 5, 0, 0, 0, 0, 0, 0]), 'gif'),
    /^GIF could not be read \(Invalid graphics extension block\.\)$/,
  );
});

Deno.test('GIF block walk: each truncated or unknown block has its own error', () => {
  const screen = (flags = 0) => bytesOf('GIF89a', u16le(2), u16le(2), [flags, 0, 0]);
  // 13 bytes are a whole header (with no blocks after it); 12 are not.
  malformed(() => cleanImage(screen(), 'gif'), /^GIF ends without a trailer$/);
  malformed(() => cleanImage(screen().subarray(0, 12), 'gif'), /^GIF is too short$/);
  // A global table of 4 colours is 12 bytes.
  malformed(
    () => cleanImage(bytesOf(screen(0x81), new Uint8Array(11)), 'gif'),
    /^GIF colour table runs past the end of the file$/,
  );
  malformed(
    () => cleanImage(bytesOf(screen(0x81), new Uint8Array(12)), 'gif'),
    /^GIF ends without a trailer$/,
  );
  const head = bytesOf(screen(0x80), RED, BLUE);
  const clean =
    (...blocks: (number[] | Uint8Array)[]) =>
    () =>
      cleanImage(bytesOf(head, ...blocks), 'gif');
  const frame = image(0, 0, 2, 2, [0, 1, 1, 0]);
  const descriptor = frame.subarray(0, 10);
  malformed(clean(frame), /^GIF ends without a trailer$/);
  malformed(clean(descriptor.subarray(0, 9)), /^GIF image descriptor runs past the end of the file$/);
  malformed(clean(descriptor), /^GIF ends inside a data block$/);
  malformed(clean(frame.subarray(0, frame.length - 1)), /^GIF ends inside a data block$/);
  malformed(clean([0x00], TRAILER), /^GIF has an unknown block$/);
  malformed(clean([0x21]), /^GIF has an unknown block$/);
  malformed(clean([0x21, 0xf9]), /^GIF ends inside a data block$/);
  malformed(clean([0x21, 0xfe, 5, 1, 2]), /^GIF ends inside a data block$/);
  malformed(clean(TRAILER), /^GIF has no image data$/);
  // A frame must lie inside the screen; up to its edge is inside.
  malformed(clean(image(1, 0, 2, 2, [0, 1, 1, 0]), TRAILER), /^GIF frame lies outside the image$/);
  malformed(clean(image(0, 1, 2, 2, [0, 1, 1, 0]), TRAILER), /^GIF frame lies outside the image$/);
  assert.deepEqual(gifFrames(cleanImage(bytesOf(head, image(1, 1, 1, 1, [1]), TRAILER), 'gif')), [
    [NONE, NONE, NONE, opaque(BLUE)].flat(),
  ]);
  // No global and no local colour table.
  malformed(() => cleanImage(gifOf(2, 2, null, frame), 'gif'), /^GIF frame has no colour table$/);
});

Deno.test(
  'GIF frames: 300 pass (each with its own 256 colours), 301 do not; all frames count for the pixel limit',
  () => {
    const palette = Array.from({ length: 256 }, (_, k) => [k, 255 - k, (k * 7) & 255]).flat();
    const frames = (n: number) =>
      Array.from({ length: n }, (_, f) => image(0, 0, 1, 1, [f % 256], palette, 8));
    const out = cleanImage(gifOf(1, 1, null, ...frames(300)), 'gif');
    const drawn = gifFrames(out);
    assert.equal(drawn.length, 300);
    for (const f of [0, 1, 255, 256, 299])
      assert.deepEqual(drawn[f], [...palette.slice(3 * (f % 256), 3 * (f % 256) + 3), 255], `frame ${f}`);
    malformed(() => cleanImage(gifOf(1, 1, null, ...frames(301)), 'gif'), /^GIF has more than 300 frames$/);
    // 4000 x 2000 twice is 16,000,000 pixels; one more pixel in a third frame is over the limit, before
    // anything is decoded.
    tooManyPixels(
      () =>
        cleanImage(
          gifOf(
            4000,
            2000,
            [...RED, ...BLUE],
            image(0, 0, 4000, 2000, [0]),
            image(0, 0, 4000, 2000, [0]),
            image(0, 0, 1, 1, [0]),
          ),
          'gif',
        ),
      4000,
      2000,
    );
  },
);

Deno.test('GIF: one large frame of noise, the LZW worst case, is re-encoded whole', () => {
  // 560 x 560 indices of a 256-colour table at random: LZW finds almost nothing to share, so its
  // output is near the bound the re-encoder's buffer is sized for (a cut-short file would not decode).
  // Math.imul: a plain product of two 32-bit numbers loses its low bits in a double, and the noise with them.
  let seed = 11;
  const random = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) >>> 24;
  const palette = Array.from({ length: 256 }, (_, k) => [k, (k * 3) & 255, (k * 11) & 255]).flat();
  const side = 560;
  const indices = Array.from({ length: side * side }, random);
  const input = gifOf(side, side, palette, image(0, 0, side, side, indices, undefined, 8));
  const out = cleanImage(input, 'gif');
  assert.ok(out.length > 0.9 * side * side, `LZW should not compress noise: ${out.length} bytes`);
  const [a, b] = [new GifReader(input), new GifReader(out)];
  const [pa, pb] = [new Uint8Array(side * side * 4), new Uint8Array(side * side * 4)];
  a.decodeAndBlitFrameRGBA(0, pa);
  b.decodeAndBlitFrameRGBA(0, pb);
  assert.ok(
    pa.every((v, i) => v === pb[i]),
    'the re-encoded pixels differ',
  );
});

Deno.test(
  'GIF: the re-encoded file is held to the 500,000-byte limit too: exactly 500,000 passes, 500,001 does not',
  async () => {
    // 299 frames of 32 x 32 noise sharing one global table (about 396 KB), then a 31 x 40 frame of noise:
    // omggif writes each frame with its own 768-byte table, about 104 KB more than the input. The last
    // frame's seed was found by trying seeds: 3 re-encodes to exactly 500,000 bytes, 17 to 500,001.
    const random = (seed: number) => () => (seed = (seed * 1_103_515_245 + 12_345) >>> 0) >>> 24;
    const noise = random(7);
    const palette = Array.from({ length: 256 }, (_, k) => [k, (k * 3) & 255, (k * 11) & 255]).flat();
    const frames = Array.from({ length: 299 }, () =>
      image(0, 0, 32, 32, Array.from({ length: 1024 }, noise), undefined, 8),
    );
    const file = (seed: number) => {
      const last = random(seed);
      return gifOf(
        32,
        64,
        palette,
        ...frames,
        image(0, 0, 31, 40, Array.from({ length: 31 * 40 }, last), undefined, 8),
      );
    };
    const [atLimit, over] = [file(3), file(17)];
    assert.ok(atLimit.length < 400_000 && over.length < 400_000);
    assert.equal(cleanImage(atLimit, 'gif').length, 500_000);
    assert.equal(cleanImage(over, 'gif').length, 500_001);
    assert.equal((await safeImage(new Blob([atLimit]), 'Evidence')).bytes.length, 500_000);
    await assert.rejects(
      safeImage(new Blob([over]), 'Evidence'),
      (e: unknown) => e instanceof HttpError && e.status === 400 && e.message === 'Image size too large',
    );
  },
);
