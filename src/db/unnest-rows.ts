/**
 * Rows as one array parameter per column, for `INSERT … SELECT FROM unnest($1::text[], …)`: the
 * statement text is the same whatever the number of rows, so each connection parses and plans it
 * once (a `VALUES` list of n rows is a new statement for every n), and a batch of any size is one
 * statement with a handful of parameters.
 */
export interface UnnestRows {
  /** `unnest($k::type[], …)` for the columns' types, numbered from `offset + 1`. */
  sql: string;
  /** One array per column, in column order. */
  params: unknown[][];
}

/** `types` are the columns' PostgreSQL types (`text`, `timestamptz`…); `rows` hold the values in the same order. */
export function unnestRows(types: readonly string[], rows: readonly (readonly unknown[])[], offset = 0): UnnestRows {
  const params: unknown[][] = types.map(() => new Array(rows.length));
  rows.forEach((row, r) => {
    for (let c = 0; c < types.length; c++) params[c]![r] = row[c] ?? null;
  });
  return { sql: `unnest(${types.map((t, i) => `$${offset + i + 1}::${t}[]`).join(', ')})`, params };
}
