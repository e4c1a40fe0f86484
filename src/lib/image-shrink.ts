/**
 * Shrinks an image the user picked until the server takes it (issue 33): phone screenshots are 0.5 to
 * 3 MB, the server's rule stays 500,000 bytes (docs/behaviour.md §5). The image is decoded, drawn at up
 * to SHRINK_MAX_SIDE and encoded as JPEG (fast enough on a phone; image-shrink-core.ts), lowering
 * quality and then size until it fits, in a worker with an OffscreenCanvas where the browser has one (so the
 * page stays responsive) and on a canvas otherwise. A file that already fits, in a type the server
 * takes and within SHRINK_MAX_SIDE, is kept as it is. The server still checks and cleans every upload.
 *
 * One worker serves every image and is started when an image field appears (holdImageShrinkWorker).
 *
 * HEIC/HEIF (iPhone photos): decoded where the browser can (Safari); elsewhere refused with a message
 * saying how to send a JPEG instead.
 */
import { i18n } from '@/i18n';
import {
  encodeToFit,
  SHRINK_MAX_BYTES,
  SHRINK_MAX_SIDE,
  type ShrinkResult,
  type ShrinkTimings,
} from './image-shrink-core';

/** What the server stores (supabase/functions/_shared/image.ts); anything else is re-encoded. */
const KEPT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];

export interface ShrunkImage {
  file: File;
  /** The size of the file the user picked, to show "1.3 MB → 312 KB". */
  originalBytes: number;
  width: number;
  height: number;
  /** False when the file was already small enough and was kept byte for byte. */
  reencoded: boolean;
  /** Where the time went, when it was re-encoded. */
  timings?: ShrinkTimings;
}

/** A refusal whose message is ready for the form (in the reader's language). */
export class ImageShrinkError extends Error {}

export function isHeic(file: File): boolean {
  return /^image\/hei[cf](-sequence)?$/i.test(file.type) || /\.hei[cf]$/i.test(file.name);
}

function renamed(name: string): string {
  return `${name.replace(/\.[^./]*$/, '') || 'image'}.jpg`;
}

async function naturalSize(file: File): Promise<{ width: number; height: number } | null> {
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return null;
  }
}

const canUseWorker = () => typeof Worker !== 'undefined' && typeof OffscreenCanvas !== 'undefined';

type WorkerAnswer =
  { ok: true; result: ShrinkResult } | { ok: false; reason: 'undecodable' | 'tooLarge' | 'failed' };

/**
 * One worker for every image, started when a picker appears (holdImageShrinkWorker) rather than when
 * an image is picked: starting a worker means fetching and running its code, which took longer than
 * shrinking a screenshot on a throttled CPU (docs/performance.md). It ends when no picker holds it and
 * nothing is waiting for it.
 */
interface SharedWorker {
  worker: Worker;
  waiting: Map<number, { resolve: (answer: WorkerAnswer) => void; reject: (error: Error) => void }>;
}
let shared: SharedWorker | null = null;
let holders = 0;
let nextId = 0;

function sharedWorker(): SharedWorker {
  if (shared) return shared;
  const worker = new Worker(new URL('./image-shrink.worker.ts', import.meta.url), { type: 'module' });
  const current: SharedWorker = { worker, waiting: new Map() };
  worker.onmessage = (event: MessageEvent<WorkerAnswer & { id: number }>) => {
    const { id, ...answer } = event.data;
    current.waiting.get(id)?.resolve(answer as WorkerAnswer);
    current.waiting.delete(id);
    endIfIdle();
  };
  worker.onerror = (event) => {
    // A worker that failed (its code did not load) is dropped; the next image starts another.
    worker.terminate();
    if (shared === current) shared = null;
    for (const { reject } of current.waiting.values())
      reject(new Error(event.message || 'image worker failed'));
    current.waiting.clear();
  };
  shared = current;
  return current;
}

function endIfIdle() {
  if (shared && holders === 0 && shared.waiting.size === 0) {
    shared.worker.terminate();
    shared = null;
  }
}

/**
 * Starts the shrinking worker ahead of the first pick (where the browser has one) and keeps it until
 * the returned function is called: an image field calls it when it appears and the release when it goes.
 */
export function holdImageShrinkWorker(): () => void {
  if (!canUseWorker()) return () => undefined;
  holders++;
  sharedWorker();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders--;
    endIfIdle();
  };
}

function inWorker(file: File): Promise<WorkerAnswer> {
  const { worker, waiting } = sharedWorker();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, file });
  });
}

async function onPage(file: File): Promise<WorkerAnswer> {
  const started = performance.now();
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return { ok: false, reason: 'undecodable' };
  }
  try {
    const result = await encodeToFit(
      bitmap,
      (width, height) => Object.assign(document.createElement('canvas'), { width, height }),
      (canvas, type, quality) =>
        new Promise<Blob>((resolve, reject) =>
          (canvas as HTMLCanvasElement).toBlob(
            (blob) => (blob ? resolve(blob) : reject(new Error('encoding failed'))),
            type,
            quality,
          ),
        ),
      performance.now() - started,
      { bytes: file.size, type: file.type },
    );
    return result ? { ok: true, result } : { ok: false, reason: 'tooLarge' };
  } finally {
    bitmap.close();
  }
}

/**
 * Whether the file starts like an image a browser decodes (PNG, JPEG, GIF, WebP, BMP, or an ISO media
 * file: AVIF, HEIC). Anything else is refused at once, without starting a worker to fail on it.
 */
async function looksLikeImage(file: File): Promise<boolean> {
  const b = new Uint8Array(await file.slice(0, 12).arrayBuffer());
  const ascii = (from: number, to: number) => String.fromCharCode(...b.slice(from, to));
  return (
    (b[0] === 0x89 && ascii(1, 4) === 'PNG') ||
    (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) ||
    ascii(0, 4) === 'GIF8' ||
    (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') ||
    ascii(0, 2) === 'BM' ||
    ascii(4, 8) === 'ftyp'
  );
}

/**
 * The picked `file` as one the server will take (at most SHRINK_MAX_BYTES, a type it stores), or an
 * ImageShrinkError with the reason in the reader's language.
 */
export async function shrinkImage(file: File): Promise<ShrunkImage> {
  const heic = isHeic(file);
  if (!heic && !file.type.startsWith('image/')) throw new ImageShrinkError(i18n.t('image.wrongType'));
  if (!(await looksLikeImage(file))) throw new ImageShrinkError(i18n.t('image.unreadable'));
  if (file.size <= SHRINK_MAX_BYTES && KEPT_TYPES.includes(file.type)) {
    const size = await naturalSize(file);
    if (!size) throw new ImageShrinkError(i18n.t('image.unreadable'));
    if (Math.max(size.width, size.height) <= SHRINK_MAX_SIDE) {
      return { file, originalBytes: file.size, ...size, reencoded: false };
    }
  }
  let answer: WorkerAnswer;
  try {
    answer = canUseWorker() ? await inWorker(file).catch(() => onPage(file)) : await onPage(file);
  } catch {
    answer = { ok: false, reason: 'failed' };
  }
  if (!answer.ok) {
    if (answer.reason === 'undecodable')
      throw new ImageShrinkError(i18n.t(heic ? 'image.heic' : 'image.unreadable'));
    throw new ImageShrinkError(i18n.t('image.tooLarge'));
  }
  const { blob, width, height, timings } = answer.result;
  return {
    file: new File([blob], renamed(file.name), {
      type: blob.type,
      lastModified: file.lastModified,
    }),
    originalBytes: file.size,
    width,
    height,
    reencoded: true,
    timings,
  };
}
