/**
 * Reading an upload as Storage does: a raw body (type from `content-type`, caching from `cache-control`,
 * user metadata from base64 `x-metadata`) or multipart form-data as storage-js sends a Blob (fields
 * `cacheControl`, `metadata`/`userMetadata`, `contentType`, then one file part). The file's type is
 * checked against the bucket's allowed types before any byte is stored, and its size against the
 * bucket's limit while it streams to a temporary file.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { ERRORS, StorageError } from './errors.ts';
import type { ObjectFiles } from './files.ts';

export interface IncomingFile {
  body: Readable;
  mimeType: string;
  cacheControl: string;
  userMetadata?: Record<string, unknown>;
  /** The request's Content-Length, which upstream shows to RLS policies as metadata.contentLength. */
  declaredLength?: number;
  /** True when busboy cut the file part at the size limit. */
  truncated: () => boolean;
}

export interface WrittenFile {
  tempFile: string;
  size: number;
  eTag: string;
}

const MAX_CUSTOM_METADATA_SIZE = 1024 * 1024;

/** Storage keeps folder placeholders (`.emptyFolderPlaceholder`) out of the type check. */
export function isEmptyFolder(objectName: string): boolean {
  return objectName.endsWith('.emptyFolderPlaceholder');
}

/** Upstream's match: `type/*` allows any subtype; otherwise type and subtype must be equal. */
export function validateMimeType(mimeType: string, allowed: string[]): void {
  const [type, subtype] = mimeType.split('/');
  if (subtype === undefined) throw ERRORS.invalidMimeType(mimeType);
  for (const entry of allowed) {
    const [allowedType, allowedSub] = entry.split('/');
    if (allowedType === type && (allowedSub === '*' || allowedSub === subtype)) return;
  }
  throw ERRORS.invalidMimeType(mimeType);
}

function declaredLength(req: IncomingMessage): number | undefined {
  const n = Number(req.headers['content-length']);
  return Number.isFinite(n) && n >= 0 && req.headers['content-length'] !== undefined ? n : undefined;
}

function parseBase64Json(value: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * Opens the file in a request without storing anything yet, so that the caller can check RLS first.
 * Rejects a disallowed type, and a raw body whose declared length is over the limit, up front.
 */
export async function fileFromRequest(
  req: IncomingMessage,
  options: { objectName: string; maxFileSize: number; allowedMimeTypes: string[] | null },
): Promise<IncomingFile> {
  const contentType = req.headers['content-type'];
  const checkType = !!options.allowedMimeTypes?.length && !isEmptyFolder(options.objectName);
  const declared = declaredLength(req);

  if (contentType?.startsWith('multipart/form-data')) {
    return new Promise<IncomingFile>((resolve, reject) => {
      let bb: busboy.Busboy;
      try {
        bb = busboy({
          headers: req.headers,
          // busboy 1.x marks a file truncated once it reaches the limit, so a file of exactly the
          // limit would be refused; Storage's parser (@fastify/busboy) refuses only a larger one.
          // One byte of room here, and writeToTemp's count decides.
          limits: { fields: 10, files: 1, fileSize: options.maxFileSize + 1 },
        });
      } catch {
        return reject(ERRORS.noContentProvided());
      }
      const fields: Record<string, string> = {};
      let gotFile = false;
      bb.on('field', (name, value) => {
        fields[name] = value;
      });
      bb.on('file', (_name, stream, info) => {
        gotFile = true;
        const mimeType = fields.contentType || info.mimeType;
        const custom = fields.metadata ?? fields.userMetadata;
        try {
          if (checkType) validateMimeType(mimeType, options.allowedMimeTypes!);
          if (custom !== undefined && Buffer.byteLength(custom, 'utf8') > MAX_CUSTOM_METADATA_SIZE) {
            throw new StorageError(
              'EntityTooLarge',
              413,
              'The user_metadata exceeded the maximum allowed size',
              'Payload too large',
            );
          }
        } catch (e) {
          stream.resume();
          return reject(e);
        }
        let userMetadata: Record<string, unknown> | undefined;
        if (custom !== undefined) {
          try {
            userMetadata = JSON.parse(custom) as Record<string, unknown>;
          } catch {
            // Upstream ignores user metadata that is not JSON.
          }
        }
        resolve({
          body: stream,
          mimeType,
          cacheControl: fields.cacheControl ? `max-age=${fields.cacheControl}` : 'no-cache',
          userMetadata,
          declaredLength: declared,
          truncated: () => !!stream.truncated,
        });
      });
      bb.on('error', () => reject(ERRORS.noContentProvided()));
      bb.on('close', () => {
        if (!gotFile) reject(ERRORS.noContentProvided());
      });
      req.pipe(bb);
    });
  }

  const mimeType = contentType || 'application/octet-stream';
  if (checkType) validateMimeType(mimeType, options.allowedMimeTypes!);
  if (declared !== undefined && declared > options.maxFileSize) throw ERRORS.entityTooLarge();
  const xMetadata = req.headers['x-metadata'];
  return {
    body: req,
    mimeType,
    cacheControl: (req.headers['cache-control'] as string | undefined) ?? 'no-cache',
    userMetadata: typeof xMetadata === 'string' ? parseBase64Json(xMetadata) : undefined,
    declaredLength: declared,
    truncated: () => false,
  };
}

/**
 * Streams the file to a temporary file, hashing it for the ETag. Bytes past the limit are read and
 * dropped rather than aborting the request, so the client still receives Storage's error answer.
 */
export async function writeToTemp(
  file: IncomingFile,
  files: ObjectFiles,
  maxFileSize: number,
): Promise<WrittenFile> {
  const tempFile = await files.newTempFile();
  const out = createWriteStream(tempFile);
  const hash = createHash('md5');
  let size = 0;
  let over = false;
  try {
    for await (const chunk of file.body) {
      const buf = chunk as Buffer;
      size += buf.length;
      if (over || size > maxFileSize) {
        over = true;
        continue;
      }
      hash.update(buf);
      if (!out.write(buf)) await once(out, 'drain');
    }
    out.end();
    await finished(out);
    if (over || file.truncated()) throw ERRORS.entityTooLarge();
    return { tempFile, size, eTag: `"${hash.digest('hex')}"` };
  } catch (e) {
    out.destroy();
    await files.removeTemp(tempFile);
    throw e;
  }
}
