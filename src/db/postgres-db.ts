import postgres from 'postgres';
import { isConnectionLoss } from './connection-loss.js';
import type { Db } from './db.js';
import { quoteIdent } from './pg-schema.js';

type Sql = postgres.Sql | postgres.TransactionSql;

class PostgresDb implements Db {
  readonly kind = 'postgres' as const;
  constructor(
    private readonly sql: Sql,
    private readonly root: postgres.Sql,
    private readonly inTransaction: boolean,
  ) {}

  async query<T>(text: string, params: readonly unknown[] = []): Promise<T[]> {
    const rows = await this.sql.unsafe(text, params as postgres.ParameterOrJSON<never>[]);
    return rows as unknown as T[];
  }

  async exec(text: string): Promise<void> {
    await this.sql.unsafe(text);
  }

  async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn(this);
    const result = await this.root.begin((tx) =>
      // A callback that failed because its connection is gone must not settle: postgres.js would
      // answer with ROLLBACK on the dead connection, a write to a null socket from a setImmediate
      // that kills the process (porsager/postgres#1154, #1208). `begin` itself already rejects
      // with the connection's close error; the unsettled callback is simply collected.
      fn(new PostgresDb(tx, this.root, true)).catch((err: unknown) => (isConnectionLoss(err) ? new Promise<never>(() => {}) : Promise.reject(err))),
    );
    return result as T;
  }

  async close(): Promise<void> {
    if (!this.inTransaction) await this.root.end({ timeout: 5 });
  }
}

export interface PostgresOptions {
  /** Connections in the pool (default 4). */
  max?: number;
  /**
   * The schema every unqualified name resolves to (the connection's search_path, and nothing
   * else: another application's tables in `public` stay out of sight). Unset: the server's default.
   */
  schema?: string;
  /** Seconds to wait for a connection before giving up (default 10). */
  connectTimeoutSeconds?: number;
}

/** Connects to a PostgreSQL server. int8 and numeric come back as JS numbers, like PGlite. */
export function openPostgresDb(url: string, options: PostgresOptions = {}): Db {
  const sql = postgres(url, {
    max: options.max ?? 4,
    connect_timeout: options.connectTimeoutSeconds ?? 10,
    ...(options.schema !== undefined ? { connection: { search_path: quoteIdent(options.schema) } } : {}),
    onnotice: () => {},
    // int8 as a JS number, like PGlite (sequences and counts stay far below 2^53).
    types: {
      int8: { to: 20, from: [20], serialize: (v: number) => String(v), parse: (v: string) => Number(v) },
    },
    transform: { undefined: null },
  });
  return new PostgresDb(sql, sql, false);
}
