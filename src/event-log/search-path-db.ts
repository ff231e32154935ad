import type { Db } from '../db/db.js';

/**
 * A view of `db` whose every transaction resolves unqualified table names through `path` first.
 * A rebuild runs the unmodified projection code through it, so the projection writes into the
 * shadow tables of its rebuild schema and reads everything else (the log, checkpoints, other
 * projections) where it always does. The previous path is restored when the function returns, so
 * the view can also run inside an outer transaction (the swap) and hand it back untouched.
 */
export function withSearchPath(db: Db, path: string): Db {
  const view: Db = {
    kind: db.kind,
    query: (sql, params) => view.transaction((tx) => tx.query(sql, params)),
    exec: (sql) => view.transaction((tx) => tx.exec(sql)),
    transaction: (fn) =>
      db.transaction(async (tx) => {
        const [row] = await tx.query<{ p: string }>(`SELECT current_setting('search_path') AS p`);
        await tx.query(`SELECT set_config('search_path', $1, true)`, [path]);
        const result = await fn(tx);
        await tx.query(`SELECT set_config('search_path', $1, true)`, [row!.p]);
        return result;
      }),
    close: async () => {},
  };
  return view;
}

export { quoteIdent } from '../db/pg-schema.js';
