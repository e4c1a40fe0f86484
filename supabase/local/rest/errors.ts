/**
 * PostgREST's error bodies and status codes (PostgREST `src/PostgREST/Error.hs`): every failure answers
 * `{code, details, hint, message}`, errors raised by PostgreSQL keep their SQLSTATE and text, and the
 * status follows PostgREST's SQLSTATE table so supabase-js callers see what Supabase would send.
 */

export interface ErrorBody {
  code: string;
  /** Text, or for PGRST201 the candidate relationships as JSON. */
  details: string | null | unknown[];
  hint: string | null;
  message: string;
}

/** An error PostgREST itself raises (PGRSTxxx), or a PostgreSQL error rebuilt in its shape. */
export class RestError extends Error {
  /** Details that PostgREST gives as JSON rather than text (PGRST201's candidates). */
  detailsJson?: unknown[];

  constructor(
    public status: number,
    public code: string,
    message: string,
    public details: string | null = null,
    public hint: string | null = null,
    public headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): ErrorBody {
    return {
      code: this.code,
      details: this.detailsJson ?? this.details,
      hint: this.hint,
      message: this.message,
    };
  }
}

/** PGRST100: the query string does not follow PostgREST's grammar. */
export function parseError(what: string, input: string, details: string): RestError {
  return new RestError(
    400,
    'PGRST100',
    `"failed to parse ${what} (${input})" (line 1, column ${Math.max(1, input.length)})`,
    details,
  );
}

export function columnMissing(table: string, column: string): RestError {
  // The text PostgreSQL gives for an unknown column, which PostgREST forwards as is.
  return new RestError(400, '42703', `column ${table}.${column} does not exist`);
}

export function payloadColumnMissing(table: string, column: string): RestError {
  return new RestError(
    400,
    'PGRST204',
    `Could not find the '${column}' column of '${table}' in the schema cache`,
  );
}

export function tableMissing(schema: string, table: string, hint: string | null): RestError {
  return new RestError(
    404,
    'PGRST205',
    `Could not find the table '${schema}.${table}' in the schema cache`,
    null,
    hint,
  );
}

export function invalidBody(message: string): RestError {
  return new RestError(400, 'PGRST102', message);
}

/** The HTTP status PostgREST answers for a PostgreSQL error (`mapSQLtoHTTP`). */
export function statusForSqlState(code: string, message: string, authed: boolean): number {
  switch (code) {
    case '23503':
    case '23505':
      return 409;
    case '25006':
      return 405;
    case '21000':
      return message.endsWith('requires a WHERE clause') ? 400 : 500;
    case '22023':
      return message.startsWith('role') && message.endsWith('does not exist') ? 401 : 400;
    case '53400':
      return 500;
    case '57P01':
      return 503;
    case 'P0001':
      return 400;
    case '42883':
      return 404;
    case '42P01':
      return 404;
    case '42P17':
      return 500;
    case '42501':
      return authed ? 403 : 401;
  }
  const two = code.slice(0, 2);
  switch (two) {
    case '08':
      return 503;
    case '09':
      return 500;
    case '0L':
    case '0P':
    case '28':
      return 403;
    case '25':
    case '2D':
    case '38':
    case '39':
    case '3B':
    case '40':
    case '54':
    case '55':
    case '57':
    case '58':
    case 'F0':
    case 'HV':
    case 'P0':
    case 'XX':
      return 500;
    case '53':
      return 503;
    case 'PT': {
      const n = Number(code.slice(2));
      return Number.isInteger(n) && n >= 100 && n <= 599 ? n : 500;
    }
  }
  return 400;
}

interface PgErrorLike {
  code?: string;
  message: string;
  detail?: string;
  hint?: string;
}

/** Rebuilds a PostgreSQL error as PostgREST answers it, honouring `raise sqlstate 'PGRST'` full control. */
export function fromPgError(e: PgErrorLike, authed: boolean): RestError {
  const code = e.code ?? 'XX000';
  if (code === 'PGRST') {
    try {
      const m = JSON.parse(e.message) as { code: string; message: string; details?: string; hint?: string };
      const d = JSON.parse(e.detail ?? '') as { status: number; headers?: Record<string, string> };
      if (typeof m.code === 'string' && typeof m.message === 'string' && typeof d.status === 'number') {
        return new RestError(d.status, m.code, m.message, m.details ?? null, m.hint ?? null, d.headers ?? {});
      }
    } catch {
      // falls through to PostgREST's own parse error below
    }
    return new RestError(500, 'PGRST121', 'Could not parse JSON in the "RAISE SQLSTATE \'PGRST\'" error');
  }
  const status = statusForSqlState(code, e.message, authed);
  const headers: Record<string, string> = status === 401 ? { 'www-authenticate': 'Bearer' } : {};
  return new RestError(status, code, e.message, e.detail ?? null, e.hint ?? null, headers);
}
