/**
 * Request bodies as the legacy API takes them: JSON, URL-encoded forms or multipart forms (with
 * files), all read into one plain object of fields. Bodies are read with a hard size cap, so a
 * huge upload is refused with 413 before it is buffered, and unreadable bodies get a 400.
 */
import { HttpError } from './http.ts';

/** Room for one 500000-byte image plus the text fields of the largest form (a report). */
export const MAX_BODY_BYTES = 1_000_000;

export type Fields = Record<string, unknown>;

async function readCapped(req: Request, max: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > max) throw new HttpError(413, 'Request body too large');
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new HttpError(413, 'Request body too large');
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** How deeply a JSON body may nest; no route takes more than a few levels. */
export const MAX_JSON_DEPTH = 32;

/**
 * Text the database can store: well-formed Unicode without NUL characters. A lone surrogate or a NUL
 * would otherwise fail deep inside Postgres (or in URL encoding) instead of at the door. The walk keeps
 * its own stack, so a body nested thousands of levels deep is refused with a 400 instead of
 * overflowing the call stack.
 */
function checkText(root: unknown): void {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (!value.isWellFormed() || value.includes('\u0000')) {
        throw new HttpError(400, `${path} must be valid text (no NUL characters or broken Unicode)`);
      }
      continue;
    }
    if (!value || typeof value !== 'object' || value instanceof Blob) continue;
    if (depth >= MAX_JSON_DEPTH) {
      throw new HttpError(400, `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`);
    }
    if (Array.isArray(value))
      value.forEach((v, i) => stack.push({ value: v, path: `${path}[${i}]`, depth: depth + 1 }));
    else {
      for (const [k, v] of Object.entries(value))
        stack.push({ value: v, path: path ? `${path}.${k}` : k, depth: depth + 1 });
    }
  }
}

/**
 * The request's fields. Repeated form fields keep their last value; files stay File objects, which
 * callers pass to image.ts. An empty body is an empty object (validation then names what is missing).
 */
export async function readFields(req: Request, max = MAX_BODY_BYTES): Promise<Fields> {
  const type = (req.headers.get('content-type') ?? '').toLowerCase();
  const bytes = await readCapped(req, max);
  if (bytes.length === 0) return {};
  if (type.startsWith('multipart/form-data') || type.startsWith('application/x-www-form-urlencoded')) {
    let form: FormData;
    try {
      form = await new Response(bytes, {
        headers: { 'content-type': req.headers.get('content-type')! },
      }).formData();
    } catch {
      throw new HttpError(400, 'The form data could not be read');
    }
    const fields: Fields = {};
    for (const [k, v] of form.entries()) fields[k] = v;
    // The multipart reader takes a body without its closing boundary (or without any) as a form with no
    // fields; that body is not a form, and an empty form would pass for "nothing sent" (check:fuzz).
    if (Object.keys(fields).length === 0 && type.startsWith('multipart/form-data')) {
      const boundary = /boundary="?([^";]+)"?/i.exec(req.headers.get('content-type')!)?.[1];
      if (!boundary || !new TextDecoder('latin1').decode(bytes).includes(`--${boundary}--`))
        throw new HttpError(400, 'The form data could not be read');
    }
    checkText(fields);
    return fields;
  }
  if (type.startsWith('application/json') || type === '' || type.startsWith('text/plain')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch {
      throw new HttpError(400, 'Malformed JSON in request body');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new HttpError(400, 'Request body must be a JSON object');
    }
    checkText(parsed);
    return parsed as Fields;
  }
  throw new HttpError(415, 'Send the fields as JSON, a URL-encoded form or multipart/form-data');
}

/** A file field, or null when absent or sent as an empty text value (browsers do that for no file). */
export function fileField(fields: Fields, name: string): File | null {
  const v = fields[name];
  if (v instanceof File) return v.size === 0 && !v.name ? null : v;
  if (v === undefined || v === null || v === '') return null;
  throw new HttpError(400, `${name} must be a file upload`);
}
