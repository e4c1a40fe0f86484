/**
 * supabase/config.toml, read in one place: every service takes its section from here (`[api]` for
 * REST, `[auth]` for Auth, `[storage]` for Storage, `[functions.<name>]` for functions), as the Supabase
 * CLI hands each section to the service it configures. The file is parsed again only when it changed
 * (size or modification time), so per-request readers such as the functions runtime's `verify_jwt`
 * check still see an edit at once without parsing the file on every request.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { SUPABASE_DIR } from './config.ts';

export type TomlTable = Record<string, unknown>;

export const CONFIG_TOML = path.join(SUPABASE_DIR, 'config.toml');

/** A TOML value as a table: `{}` for anything that is not one. */
export function table(v: unknown): TomlTable {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as TomlTable) : {};
}

/** The whole of config.toml (or of `text`), `{}` when the file is absent. A syntax error throws. */
export function readProjectConfig(text?: string): TomlTable {
  if (text !== undefined) return parseToml(text) as TomlTable;
  const stat = statSync(CONFIG_TOML, { throwIfNoEntry: false });
  const version = stat ? `${stat.size}:${stat.mtimeMs}` : 'absent';
  if (parsed?.version !== version) {
    const table = stat ? (parseToml(readFileSync(CONFIG_TOML, 'utf8')) as TomlTable) : {};
    parsed = { version, table: deepFreeze(table) };
  }
  return parsed.table;
}

/** The last parse of config.toml and the file's size and modification time it was made from. */
let parsed: { version: string; table: TomlTable } | undefined;

/** Shared between callers, so nobody may change it. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** One top-level section of config.toml (`api`, `storage`, ...), `{}` when missing. */
export function configSection(name: string, text?: string): TomlTable {
  return table(readProjectConfig(text)[name]);
}

const UNITS: Record<string, number> = {
  b: 1,
  kb: 1e3,
  kib: 1024,
  mb: 1e6,
  mib: 1024 ** 2,
  gb: 1e9,
  gib: 1024 ** 3,
};

/**
 * A size as config.toml and Storage's bucket API write it ("50MiB", "20MB", "1.5GB", 1048576), in
 * bytes; undefined when it does not read as one. `binary: false` takes only the decimal units
 * (B, KB, MB, GB) with the unit required and three significant digits, as Storage's bucket API does.
 */
export function parseFileSize(value: unknown, binary = true): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  const m = binary
    ? /^\s*(\d+(?:\.\d+)?)\s*(b|kb|kib|mb|mib|gb|gib)?\s*$/i.exec(value)
    : /^(\d+(?:\.\d+)?)(gb|mb|kb|b)$/i.exec(value);
  if (!m) return undefined;
  const n = binary ? Number(m[1]) : +parseFloat(m[1]).toPrecision(3);
  const bytes = n * UNITS[(m[2] ?? 'b').toLowerCase()];
  return binary ? Math.floor(bytes) : bytes;
}
