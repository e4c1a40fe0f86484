/**
 * Hostile PNGs for the image transformation tests, built byte by byte: a pixel bomb (its header
 * promises 2.5 billion pixels) and a deflate bomb (a small frame whose data inflates to 20 MB).
 */
import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG of `width` x `height` pixels of `depth` bits, colour type `colorType`, holding `raw` as its rows. */
function pngOf(
  width: number,
  height: number,
  depth: number,
  colorType: number,
  raw: Uint8Array,
  level?: number,
) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([depth, colorType, 0, 0, 0], 8);
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, level === undefined ? {} : { level })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** 50,000 x 50,000 one-bit grey pixels, all zero, deflated at level 9 into about 304 KB. */
export function pngBomb(): Buffer {
  return pngOf(50_000, 50_000, 1, 0, new Uint8Array(50_000 * (1 + Math.ceil(50_000 / 8))), 9);
}

/** IHDR says 64 x 64 RGB, but the data inflates to 20 MB. */
export function pngDeflateBomb(): Buffer {
  return pngOf(64, 64, 8, 2, new Uint8Array(20_000_000));
}
