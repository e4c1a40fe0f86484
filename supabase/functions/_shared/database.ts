/**
 * The database types the clients are created with: the generated ones (database.types.ts, `npm run
 * db:types`), with the few arguments the SQL functions take as null on purpose. The generator types
 * an argument without a default as never null (Postgres does not record whether a function reads
 * null), so those are declared here, each with the reason.
 */
import type { Database as Generated, TablesInsert } from './database.types.ts';

export type { Json, Tables, TablesInsert, TablesUpdate, Enums } from './database.types.ts';

interface NullableArgs {
  /** An anonymous page view has no visitor; a path that is not a clean site path is logged as null. */
  record_visits: { visitor_id: string | null; paths: (string | null)[] };
  /** An anonymous search has no searcher. */
  search_reports_located: { searcher: string | null };
}

type GeneratedFunctions = Generated['public']['Functions'];
type Functions = {
  [F in keyof GeneratedFunctions]: F extends keyof NullableArgs
    ? Omit<GeneratedFunctions[F], 'Args'> & {
        Args: Omit<GeneratedFunctions[F]['Args'], keyof NullableArgs[F]> & NullableArgs[F];
      }
    : GeneratedFunctions[F];
};

export type Database = Omit<Generated, 'public'> & {
  public: Omit<Generated['public'], 'Functions'> & { Functions: Functions };
};

type PublicTable = keyof Generated['public']['Tables'];

/** The insert of a row whose columns `K` the database's trigger fills (see FilledByDatabase). */
export function filledByDatabase<T extends PublicTable, K extends keyof TablesInsert<T>>(
  row: FilledByDatabase<T, K>,
): TablesInsert<T> {
  return row as TablesInsert<T>;
}

/** The object without its undefined entries: a patch holds only the fields the caller sent. */
export function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * An insert into `T` without the columns `K` that a before-insert trigger computes (the canonical
 * identifier and its kind). The generator marks them required, being NOT NULL without a default; the
 * callers leave them out, and the database fills them from the row.
 */
export type FilledByDatabase<T extends PublicTable, K extends keyof TablesInsert<T>> = Omit<
  TablesInsert<T>,
  K
>;
