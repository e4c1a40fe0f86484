/**
 * Reads the text of an image on the device: the image is decoded and prepared in a worker of ours
 * (prepare.worker.ts), then read by Tesseract (WebAssembly) in its own worker, so the page never blocks.
 * Tesseract, its core and the English model are the app's own files (OCR_ASSET_BASE), loaded only when
 * an image is given. Nothing is sent anywhere: the image never leaves the device.
 */
import type { Worker as TesseractWorker } from 'tesseract.js';
import { OCR_ASSET_BASE } from './assets';
import { readingFromPage, type Reading } from './lines';
import { isPhoneScreen } from './prepare';
import type { PrepareRequest, PrepareResponse } from './prepare.worker';

export type { Reading };

/** Larger files are refused before decoding (a screenshot is 0.1-3 MB; a phone photo up to ~12 MB). */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

export type ReadFailure = 'not-image' | 'too-large' | 'heic' | 'decode' | 'engine';

export class ImageReadError extends Error {
  constructor(readonly reason: ReadFailure) {
    super(`image could not be read: ${reason}`);
    this.name = 'ImageReadError';
  }
}

export type ReadStage = 'preparing' | 'loading' | 'reading';

const isHeic = (file: Blob) =>
  /^image\/hei[cf]/i.test(file.type) || (file instanceof File && /\.hei[cf]$/i.test(file.name));

let engine: Promise<TesseractWorker> | null = null;

function startEngine(): Promise<TesseractWorker> {
  engine ??= import('tesseract.js')
    .then(({ createWorker, OEM }) =>
      createWorker('eng', OEM.LSTM_ONLY, {
        workerPath: `${OCR_ASSET_BASE}/worker.min.js`,
        corePath: `${OCR_ASSET_BASE}/core`,
        langPath: `${OCR_ASSET_BASE}/lang`,
        workerBlobURL: false,
        // The service worker keeps the files; a second copy in IndexedDB would only use space.
        cacheMethod: 'none',
        gzip: true,
      }),
    )
    .catch((error: unknown) => {
      engine = null;
      throw error;
    });
  return engine;
}

/** Stops the OCR engine (when leaving /check); the next image starts it again. */
export async function stopImageReader(): Promise<void> {
  const running = engine;
  engine = null;
  if (running) await running.then((w) => w.terminate()).catch(() => undefined);
}

function prepare(image: Blob): Promise<Extract<PrepareResponse, { ok: true }>> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./prepare.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<PrepareResponse>) => {
      worker.terminate();
      if (event.data.ok) resolve(event.data);
      else reject(new ImageReadError('decode'));
    };
    worker.onerror = () => {
      worker.terminate();
      reject(new ImageReadError('decode'));
    };
    worker.postMessage({ image } satisfies PrepareRequest);
  });
}

/** The text of an image, read on this device. Throws ImageReadError with the reason it cannot. */
export async function readImage(image: Blob, onStage?: (stage: ReadStage) => void): Promise<Reading> {
  if (!image.type.startsWith('image/') && !isHeic(image)) throw new ImageReadError('not-image');
  if (image.size > MAX_IMAGE_BYTES) throw new ImageReadError('too-large');
  onStage?.('preparing');
  // The engine's files download while the image is prepared.
  const starting = startEngine();
  starting.catch(() => undefined);
  let prepared;
  try {
    prepared = await prepare(image);
  } catch (error) {
    // Only Safari decodes iPhone photos (HEIC); elsewhere say what to do instead.
    if (error instanceof ImageReadError && isHeic(image)) throw new ImageReadError('heic');
    throw error;
  }
  onStage?.('loading');
  let worker: TesseractWorker;
  try {
    worker = await starting;
  } catch {
    throw new ImageReadError('engine');
  }
  onStage?.('reading');
  const { data } = await worker.recognize(prepared.png, {}, { text: false, blocks: true });
  return readingFromPage(data, prepared.height, isPhoneScreen(prepared.sourceWidth, prepared.sourceHeight));
}
