/**
 * Storage's error model, as supabase/storage renders it: a body `{statusCode, code, error, message}`
 * where `statusCode` is the logical status as a string, while the HTTP status itself is 400 for every
 * client error and 500 for server errors (Storage's `userStatusCode`). storage-js reads `statusCode` and
 * `message` from the body, so clients see e.g. statusCode '404' on an HTTP 400 answer, exactly as on
 * Supabase. A few answers (role checks on the bucket API) carry their real status, as upstream does.
 */
import type { ServerResponse } from 'node:http';
import { DatabaseError } from 'pg';
import { sendJson } from '../http.ts';

export class StorageError extends Error {
  constructor(
    public code: string,
    public statusCode: number,
    message: string,
    /** The legacy `error` field; upstream falls back to the code when it has none. */
    public error: string = code,
    /** The HTTP status sent; upstream sends 400 for every non-500 error unless told otherwise. */
    public httpStatus: number = statusCode === 500 ? 500 : 400,
  ) {
    super(message);
  }

  body() {
    return { statusCode: String(this.statusCode), code: this.code, error: this.error, message: this.message };
  }
}

/** The errors this service raises, with upstream's codes, status codes and messages. */
export const ERRORS = {
  noSuchBucket: () => new StorageError('NoSuchBucket', 404, 'Bucket not found', 'Bucket not found'),
  noSuchKey: () => new StorageError('NoSuchKey', 404, 'Object not found', 'not_found'),
  invalidKey: (key: string) => new StorageError('InvalidKey', 400, `Invalid key: ${key}`),
  invalidBucketName: () => new StorageError('InvalidBucketName', 400, 'Bucket name invalid', 'Invalid Input'),
  accessDenied: (message: string) =>
    new StorageError('AccessDenied', 403, message || 'Access denied', 'Unauthorized'),
  invalidJwt: (message: string) => new StorageError('InvalidJWT', 400, message || 'Invalid JWT'),
  invalidSignature: (message = 'Invalid signature') => new StorageError('InvalidSignature', 400, message),
  expiredSignature: () => new StorageError('ExpiredToken', 400, 'The provided token has expired.'),
  entityTooLarge: () =>
    new StorageError(
      'EntityTooLarge',
      413,
      'The object exceeded the maximum allowed size',
      'Payload too large',
    ),
  invalidMimeType: (mimeType: string) =>
    new StorageError('InvalidMimeType', 415, `mime type ${mimeType} is not supported`, 'invalid_mime_type'),
  invalidRange: () => new StorageError('InvalidRange', 400, 'invalid range provided', 'invalid_range'),
  keyAlreadyExists: () =>
    new StorageError('KeyAlreadyExists', 409, 'The resource already exists', 'Duplicate'),
  resourceAlreadyExists: () =>
    new StorageError('ResourceAlreadyExists', 409, 'The resource already exists', 'Duplicate'),
  bucketAlreadyExists: () =>
    new StorageError('BucketAlreadyExists', 409, 'The resource already exists', 'Duplicate'),
  bucketNotEmpty: () =>
    new StorageError('ResourceNotEmpty', 409, 'The bucket you tried to delete is not empty'),
  noContentProvided: () => new StorageError('InvalidRequest', 400, 'No content provided'),
  invalidParameter: (name: string) => new StorageError('InvalidParameter', 400, `Invalid Parameter ${name}`),
  invalidFileSizeLimit: () =>
    new StorageError('InvalidRequest', 400, 'Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B'),
  /** Fastify's schema validation answer, which upstream passes through with its real status. */
  validation: (message: string) => new StorageError('InvalidRequest', 400, message, 'Bad Request'),
  notFoundRoute: (method: string, url: string) =>
    new StorageError('InvalidRequest', 404, `Route ${method}:${url} not found`, 'Not Found', 404),
  internal: () => new StorageError('InternalError', 500, 'Internal server error'),
};

/** Maps a Postgres error the way Storage's database layer does (RLS denial, duplicates, ...). */
export function fromPgError(e: unknown): unknown {
  if (!(e instanceof DatabaseError)) return e;
  switch (e.code) {
    case '42501':
      return ERRORS.accessDenied(
        e.message.includes('row-level security') ? 'new row violates row-level security policy' : e.message,
      );
    case '23505':
      return ERRORS.resourceAlreadyExists();
    case '23503':
      return new StorageError('InvalidRequest', 404, 'The related resource does not exist');
    case '57014':
      return new StorageError(
        'DatabaseTimeout',
        544,
        'The connection to the database timed out',
        'DatabaseTimeout',
        544,
      );
    case '22P02':
      return new StorageError(
        'InvalidParameter',
        400,
        e.message || 'Invalid value format or type conversion failed',
      );
    default:
      return new StorageError('DatabaseError', 500, `database error, code: ${e.code}`);
  }
}

export function sendStorageError(res: ServerResponse, e: StorageError, headers: Record<string, string> = {}) {
  sendJson(res, e.httpStatus, e.body(), headers);
}
