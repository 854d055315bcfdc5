/**
 * A table's columns declared beside its row type (issue 39): the row type says what a `SELECT *`
 * returns, the declaration says it to the run time, and `Columns<Row>` makes the two agree — a
 * column missing, extra or of another type does not compile. `test/store/schema.test.ts` compares
 * each declaration with `PRAGMA table_info` of a freshly migrated store.
 */
type SqlOf<V> = [V] extends [number] ? "INTEGER" : [V] extends [string] ? "TEXT" : never;

/** `TEXT` or `INTEGER`, with ` NULL` when the row may hold null (a primary key never does). */
export type ColumnOf<V> = null extends V ? `${SqlOf<NonNullable<V>>} NULL` : SqlOf<V>;

export type Columns<Row> = { readonly [K in keyof Row]-?: ColumnOf<Row[K]> };

export interface Table<Row> {
  readonly name: string;
  readonly columns: Columns<Row>;
}

/** Declares a table: its name and one SQL type per column of `Row`, checked against `Row`. */
export function table<Row>(name: string, columns: Columns<Row>): Table<Row> {
  return { name, columns };
}
