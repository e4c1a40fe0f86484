/**
 * Where object bytes live: `${dataDir}/storage/<bucket>/<key>/<version>`, the layout of Storage's own
 * file backend. Every upload writes a new version file; the row in storage.objects names the version
 * that is current, so a reader always gets the bytes its row describes, a failed upload leaves the old
 * object untouched, and an object `a` can sit beside an object `a/b`. Uploads are first written to a
 * temporary file outside the bucket folders and renamed into place only once their row is written.
 */
import { createReadStream, type ReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { ERRORS } from './errors.ts';

// The characters upstream accepts in object keys and bucket names (storage/src/storage/limits.ts).
const VALID_OBJECT_KEY = /^[A-Za-z0-9_/!.*'() &$=@;:+,?-]*$/;
const VALID_BUCKET_NAME = /^[A-Za-z0-9_!.*'() &$=@;:+,?-]*$/;

export function isValidKey(key: string): boolean {
  return key.length > 0 && VALID_OBJECT_KEY.test(key);
}

export function isValidBucketName(name: string): boolean {
  return name.length > 0 && name.length < 101 && VALID_BUCKET_NAME.test(name);
}

/** The longest file name the file backend can store (NAME_MAX on Linux file systems), in bytes. */
const MAX_SEGMENT_BYTES = 255;

/**
 * Upstream's key check, plus what its file backend cannot store: `.`/`..` segments, absolute paths and
 * segments over 255 bytes (which would fail with ENAMETOOLONG). All answer upstream's InvalidKey (400).
 */
export function mustBeValidKey(key: string | undefined): asserts key is string {
  if (
    !key ||
    !isValidKey(key) ||
    key.startsWith('/') ||
    key.split('/').some((s) => s === '.' || s === '..' || Buffer.byteLength(s) > MAX_SEGMENT_BYTES)
  ) {
    throw ERRORS.invalidKey(key ?? '');
  }
}

export class ObjectFiles {
  readonly root: string;
  readonly tmpDir: string;

  constructor(dataDir: string) {
    this.root = path.resolve(dataDir, 'storage');
    this.tmpDir = path.resolve(dataDir, 'storage-uploads');
  }

  /**
   * The file of one object version. Bucket ids come from the database, keys from the URL: both are
   * checked again here so that nothing can resolve outside the storage folder.
   */
  pathOf(bucketId: string, key: string, version: string): string {
    const rel = `${bucketId}/${key}/${version}`;
    const segments = rel.split('/').filter(Boolean);
    if (
      rel.includes('\0') ||
      rel.includes('\\') ||
      path.isAbsolute(key) ||
      segments.some((s) => s === '.' || s === '..')
    ) {
      throw ERRORS.invalidKey(key);
    }
    const full = path.resolve(this.root, ...segments);
    if (!full.startsWith(this.root + path.sep)) throw ERRORS.invalidKey(key);
    return full;
  }

  async newTempFile(): Promise<string> {
    await fs.mkdir(this.tmpDir, { recursive: true });
    return path.join(this.tmpDir, randomUUID());
  }

  /** Moves a finished upload (or copy) into its version file. */
  async place(tempFile: string, bucketId: string, key: string, version: string): Promise<string> {
    const target = this.pathOf(bucketId, key, version);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(tempFile, target);
    return target;
  }

  async copyToTemp(bucketId: string, key: string, version: string): Promise<string> {
    const temp = await this.newTempFile();
    await fs.copyFile(this.pathOf(bucketId, key, version), temp);
    return temp;
  }

  open(bucketId: string, key: string, version: string, range?: { start: number; end: number }): ReadStream {
    return createReadStream(this.pathOf(bucketId, key, version), range);
  }

  async exists(bucketId: string, key: string, version: string): Promise<boolean> {
    return !!(await fs.stat(this.pathOf(bucketId, key, version)).catch(() => null));
  }

  /** Removes one version file and the folders it leaves empty (never the bucket's root). */
  async remove(bucketId: string, key: string, version: string | null | undefined): Promise<void> {
    if (!version) return;
    let file: string;
    try {
      file = this.pathOf(bucketId, key, version);
    } catch {
      return;
    }
    await fs.rm(file, { force: true });
    const stop = path.resolve(this.root, bucketId);
    for (let dir = path.dirname(file); dir.startsWith(stop + path.sep); dir = path.dirname(dir)) {
      try {
        await fs.rmdir(dir);
      } catch {
        break;
      }
    }
  }

  async removeTemp(file: string | undefined): Promise<void> {
    if (file) await fs.rm(file, { force: true });
  }
}
