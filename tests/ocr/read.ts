/**
 * The app's reading of an image (src/features/check/ocr), run in Node: the same preparation and the
 * same text assembly, with Tesseract's same WebAssembly core and English model in a worker thread.
 * Only decoding and encoding differ (the browser uses createImageBitmap and an OffscreenCanvas).
 */
import path from 'node:path';
import { decode as decodePng, encode as encodePng } from 'fast-png';
import jpeg from 'jpeg-js';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { ROOT_DIR } from '../../supabase/project/index.ts';
import { OCR_ASSET_FILES } from '../../src/features/check/ocr/assets.ts';
import { readingFromPage, type Reading } from '../../src/features/check/ocr/lines.ts';
import { isPhoneScreen, prepareForOcr, type RgbaImage } from '../../src/features/check/ocr/prepare.ts';

const LANG_DIR = path.dirname(
  path.join(ROOT_DIR, 'node_modules', OCR_ASSET_FILES['lang/eng.traineddata.gz']),
);

export function startReader(): Promise<Worker> {
  // cacheMethod none: read the model from the package every time, never from a cache folder.
  return createWorker('eng', OEM.LSTM_ONLY, { langPath: LANG_DIR, cacheMethod: 'none', gzip: true });
}

export function decodeImage(bytes: Buffer, type: 'png' | 'jpeg'): RgbaImage {
  if (type === 'jpeg') {
    const img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true });
    return { width: img.width, height: img.height, data: img.data };
  }
  const png = decodePng(bytes);
  const n = png.width * png.height;
  const data = new Uint8Array(n * 4);
  const src = png.data;
  for (let i = 0; i < n; i++) {
    const c = png.channels;
    data[i * 4] = src[i * c];
    data[i * 4 + 1] = src[i * c + (c >= 3 ? 1 : 0)];
    data[i * 4 + 2] = src[i * c + (c >= 3 ? 2 : 0)];
    data[i * 4 + 3] = 255;
  }
  return { width: png.width, height: png.height, data };
}

export interface TimedReading extends Reading {
  /** CPU time of the preparation and the OCR, in ms (all threads of this process). */
  cpuMs: number;
  wallMs: number;
}

export async function readScreenImage(worker: Worker, image: RgbaImage): Promise<TimedReading> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const prepared = prepareForOcr(image);
  const png = encodePng({
    width: prepared.width,
    height: prepared.height,
    data: prepared.data,
    channels: 1,
    depth: 8,
  });
  const { data } = await worker.recognize(Buffer.from(png), {}, { text: false, blocks: true });
  const reading = readingFromPage(data, prepared.height, isPhoneScreen(image.width, image.height));
  const used = process.cpuUsage(cpu);
  return { ...reading, cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - start };
}
