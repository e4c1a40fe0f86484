// Unit tests of image.ts, run by `deno test` (supabase/tests/functions/deno.test.ts runs them in CI).
import assert from 'node:assert/strict';
import {
  detectImageType,
  MAX_IMAGE_BYTES,
  MalformedImage,
  objectName,
  safeImage,
  stripMetadata,
} from './image.ts';
import { HttpError } from './http.ts';

const enc = new TextEncoder();

function concat(...parts: (Uint8Array | number[])[]): Uint8Array<ArrayBuffer> {
  const arrays = parts.map((p) => (p instanceof Uint8Array ? p : Uint8Array.from(p)));
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

function includes(hay: Uint8Array, needle: string): boolean {
  return new TextDecoder('latin1').decode(hay).includes(needle);
}

function u32be(n: number): number[] {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
}

function u32le(n: number): number[] {
  return [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255];
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  // The CRC is not checked by the stripper; zeros keep the fixture short.
  return concat(u32be(data.length), enc.encode(type), data, [0, 0, 0, 0]);
}

const PNG_SIG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function png(extra: Uint8Array[] = []): Uint8Array<ArrayBuffer> {
  return concat(
    PNG_SIG,
    pngChunk('IHDR', new Uint8Array(13)),
    ...extra,
    pngChunk('IDAT', Uint8Array.from([1, 2, 3])),
    pngChunk('IEND', new Uint8Array()),
  );
}

function jpegSegment(marker: number, payload: Uint8Array): Uint8Array {
  const len = payload.length + 2;
  return concat([0xff, marker, len >> 8, len & 255], payload);
}

function jpeg(...segments: Uint8Array[]): Uint8Array {
  return concat(
    [0xff, 0xd8],
    ...segments,
    jpegSegment(0xc0, Uint8Array.from([8, 0, 8, 0, 8, 1, 1, 0x11, 0])),
    jpegSegment(0xda, Uint8Array.from([1, 1, 0, 0, 63, 0])),
    [0x3f, 0xff, 0x00, 0x12, 0xff, 0xd0, 0x34],
    [0xff, 0xd9],
  );
}

Deno.test('detects the four accepted formats by their bytes and nothing else', () => {
  assert.equal(detectImageType(jpeg())?.kind, 'jpeg');
  assert.equal(detectImageType(png())?.kind, 'png');
  assert.equal(detectImageType(concat(enc.encode('RIFF'), u32le(4), enc.encode('WEBP')))?.kind, 'webp');
  assert.equal(detectImageType(enc.encode('GIF89a......'))?.kind, 'gif');
  assert.equal(detectImageType(enc.encode('#!/bin/sh\nrm -rf /\n')), null);
  assert.equal(detectImageType(enc.encode('<svg xmlns="http://www.w3.org/2000/svg"/>')), null);
  assert.equal(detectImageType(enc.encode('%PDF-1.7')), null);
});

Deno.test(
  'JPEG: Exif, XMP, IPTC and comments go, the image and its colour profile stay, trailing bytes go',
  () => {
    const exif = jpegSegment(0xe1, concat(enc.encode('Exif\0\0'), enc.encode('GPSLatitude 14.5')));
    const xmp = jpegSegment(0xe1, enc.encode('http://ns.adobe.com/xap/1.0/\0<x:xmpmeta>gps</x:xmpmeta>'));
    const iptc = jpegSegment(0xed, enc.encode('Photoshop 3.0\0IPTC city Manila'));
    const comment = jpegSegment(0xfe, enc.encode('taken at home'));
    const icc = jpegSegment(0xe2, enc.encode('ICC_PROFILE\0\x01\x01sRGB'));
    const input = concat(jpeg(exif, xmp, iptc, comment, icc), enc.encode('PK\x03\x04 smuggled zip'));
    const out = stripMetadata(input, 'jpeg');
    for (const gone of ['Exif', 'GPSLatitude', 'xmpmeta', 'IPTC', 'taken at home', 'smuggled'])
      assert.ok(!includes(out, gone), gone);
    assert.ok(includes(out, 'ICC_PROFILE'));
    assert.deepEqual([...out.subarray(0, 2)], [0xff, 0xd8]);
    assert.deepEqual([...out.subarray(-2)], [0xff, 0xd9]);
    // The scan data (with its stuffed 0xFF00 and restart marker) is copied byte for byte.
    assert.ok(includes(out, '\x3f\xff\x00\x12\xff\xd0\x34'));
  },
);

Deno.test('JPEG: truncated or structureless files are refused', () => {
  assert.throws(
    () => stripMetadata(Uint8Array.from([0xff, 0xd8, 0xff, 0xe1, 0x40, 0x00, 1, 2]), 'jpeg'),
    MalformedImage,
  );
  assert.throws(() => stripMetadata(Uint8Array.from([0xff, 0xd8, 0xff, 0xd9]), 'jpeg'), MalformedImage);
});

Deno.test('PNG: text, eXIf and time chunks go, the image chunks stay, nothing after IEND', () => {
  const input = concat(
    png([
      pngChunk('tEXt', enc.encode('Comment\0secret')),
      pngChunk('iTXt', enc.encode('XML:com.adobe.xmp\0\0\0\0\0<gps/>')),
      pngChunk('eXIf', enc.encode('MM\0*GPS')),
      pngChunk('tIME', new Uint8Array(7)),
      pngChunk('pHYs', new Uint8Array(9)),
    ]),
    enc.encode('<?php system($_GET[1]); ?>'),
  );
  const out = stripMetadata(input, 'png');
  for (const gone of ['tEXt', 'secret', 'iTXt', 'eXIf', 'tIME', 'php']) assert.ok(!includes(out, gone), gone);
  for (const kept of ['IHDR', 'pHYs', 'IDAT', 'IEND']) assert.ok(includes(out, kept), kept);
});

Deno.test('PNG: a chunk running past the end is refused', () => {
  assert.throws(
    () => stripMetadata(concat(PNG_SIG, u32be(9999), enc.encode('IHDR'), new Uint8Array(4)), 'png'),
    MalformedImage,
  );
});

Deno.test('WebP: EXIF and XMP chunks go and the VP8X flags stop announcing them', () => {
  const chunk = (type: string, data: number[]) =>
    concat(enc.encode(type), u32le(data.length), data, data.length % 2 ? [0] : []);
  const vp8x = chunk('VP8X', [0x0c, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  const body = concat(
    vp8x,
    chunk('VP8L', [1, 2, 3, 4, 5]),
    chunk('EXIF', [...enc.encode('GPSdata')]),
    chunk('XMP ', [...enc.encode('<x/>')]),
  );
  const input = concat(enc.encode('RIFF'), u32le(4 + body.length), enc.encode('WEBP'), body);
  const out = stripMetadata(input, 'webp');
  assert.ok(!includes(out, 'EXIF') && !includes(out, 'GPSdata') && !includes(out, 'XMP '));
  assert.equal(out[20] & 0x0c, 0);
  assert.equal(new DataView(out.buffer).getUint32(4, true), out.length - 8);
});

Deno.test('GIF: comments and foreign application blocks go, animation blocks stay', () => {
  const comment = concat([0x21, 0xfe, 5], enc.encode('hello'), [0]);
  const xmp = concat([0x21, 0xff, 11], enc.encode('XMP DataXMP'), [3], enc.encode('gps'), [0]);
  const loop = concat([0x21, 0xff, 11], enc.encode('NETSCAPE2.0'), [3, 1, 0, 0], [0]);
  const image = concat([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0], [2, 2, 0x4c, 0x01], [0]);
  const input = concat(
    enc.encode('GIF89a'),
    [1, 0, 1, 0, 0, 0, 0],
    comment,
    xmp,
    loop,
    image,
    [0x3b],
    enc.encode('junk'),
  );
  const out = stripMetadata(input, 'gif');
  assert.ok(!includes(out, 'hello') && !includes(out, 'XMP DataXMP') && !includes(out, 'junk'));
  assert.ok(includes(out, 'NETSCAPE2.0'));
  assert.equal(out[out.length - 1], 0x3b);
});

Deno.test(
  'safeImage: oversize, empty, non-image and broken files get a 400 with a clear message',
  async () => {
    const reject = async (blob: Blob, message: RegExp) => {
      await assert.rejects(
        safeImage(blob, 'Evidence'),
        (e: unknown) => e instanceof HttpError && e.status === 400 && message.test(e.message),
      );
    };
    // SPEC.md sections 5 and 9: at most 500000 bytes. A PNG of exactly 500000 bytes (a 499928-byte
    // text chunk in a 60-byte image plus its 12-byte chunk frame) passes; one byte more does not.
    assert.equal(MAX_IMAGE_BYTES, 500_000);
    const atLimit = png([pngChunk('tEXt', new Uint8Array(499_928))]);
    assert.equal(atLimit.length, 500_000);
    assert.equal((await safeImage(new Blob([atLimit]), 'Evidence')).type.kind, 'png');
    await reject(new Blob([png([pngChunk('tEXt', new Uint8Array(499_929))])]), /^Image size too large$/);
    await reject(new Blob([new Uint8Array(500_001)]), /^Image size too large$/);
    await reject(new Blob([]), /empty/);
    await reject(
      new Blob([enc.encode('#!/bin/sh\necho pwned\n')], { type: 'image/png' }),
      /must be an image/,
    );
    await reject(new Blob([Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0])]), /not a valid JPEG/);
    const ok = await safeImage(
      new Blob([png([pngChunk('tEXt', enc.encode('a\0b'))])], { type: 'text/plain' }),
      'Avatar',
    );
    assert.equal(ok.type.mime, 'image/png');
  },
);

Deno.test('objectName is server-chosen: folder, random UUID, real extension', () => {
  const a = objectName('user-1', { kind: 'png', mime: 'image/png', ext: 'png' });
  const b = objectName('user-1', { kind: 'png', mime: 'image/png', ext: 'png' });
  assert.match(a, /^user-1\/[0-9a-f-]{36}\.png$/);
  assert.notEqual(a, b);
});
