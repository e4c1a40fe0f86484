import type { Database, TablesInsert } from './database.types';

type PublicTable = keyof Database['public']['Tables'];

/**
 * An insert into `T` without the columns `K` that a before-insert trigger computes (the canonical
 * identifier and its kind). The generator marks them required, being NOT NULL without a default; the
 * app leaves them out, and the database fills them from the row.
 */
export type FilledByDatabase<T extends PublicTable, K extends keyof TablesInsert<T>> = Omit<
  TablesInsert<T>,
  K
>;
