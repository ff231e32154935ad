// A distributed deployment keeps every table and view in one PostgreSQL schema of its own, so it
// shares a database with other applications — and with another deployment in another schema.
import { afterAll, describe, expect, it } from 'vitest';
import { runProgram } from '../../../src/cli/program.js';
import { runWithIo, type CliIo } from '../../../src/command-io.js';
import type { Db } from '../../../src/db/db.js';
import { loadMigrations } from '../../../src/db/migrate.js';
import { openPostgresDb } from '../../../src/db/postgres-db.js';
import { openDistributedDb } from '../../../src/distributed/distributed-db.js';
import { postgresOrSkip } from '../../support/services.js';

const pg = await postgresOrSkip();

/** Runs one command line in this process, as the binary would, and returns its exit code and output. */
async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), stdin: null, stdinIsTTY: false, stderrIsTTY: false, forwarded: false, env };
  const code = await runWithIo(io, () => runProgram(args));
  return { code, stdout, stderr };
}

const relationsIn = async (db: Db, schema: string): Promise<string[]> =>
  (await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'v', 'm', 'p') ORDER BY 1`,
    [schema],
  )).map((r) => r.name);

describe.skipIf(!pg)('a deployment in its own PostgreSQL schema', () => {
  afterAll(() => pg?.dropDatabase());

  it('two deployments in different schemas of one database share nothing, and public stays empty', async () => {
    const a = await openDistributedDb(pg!.url, { pool: 2, applicationName: 'schema-test-a', schema: 'deploy_a' });
    const b = await openDistributedDb(pg!.url, { pool: 2, applicationName: 'schema-test-b', schema: 'deploy_b' });
    const admin = openPostgresDb(pg!.url, { max: 1 });
    try {
      const tablesA = await relationsIn(admin, 'deploy_a');
      expect(tablesA).toEqual(expect.arrayContaining(['events', 'pages', 'facts', 'outbox', 'checkpoints', 'kafka_offsets', 'schema_migrations', 'volunteer_usage_daily']));
      expect(await relationsIn(admin, 'deploy_b')).toEqual(tablesA);
      expect(await relationsIn(admin, 'public')).toEqual([]);
      // No function of either deployment landed anywhere else either.
      const [fns] = await admin.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'`,
      );
      expect(Number(fns!.n)).toBe(0);

      await a.query(`INSERT INTO kafka_offsets (group_id, topic, partition, next_offset) VALUES ('g', 't', 0, 41)`);
      expect(await a.query('SELECT * FROM kafka_offsets')).toHaveLength(1);
      expect(await b.query('SELECT * FROM kafka_offsets')).toHaveLength(0);
      // Each migrated once, in its own schema; a second open applies nothing.
      const versions = loadMigrations().map((m) => m.version);
      for (const db of [a, b]) expect((await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY 1')).map((r) => Number(r.version))).toEqual(versions);
    } finally {
      await Promise.all([a.close(), b.close(), admin.close()]);
    }
  });

  it('migrate leaves an existing public.schema_migrations of another shape alone', async () => {
    const admin = openPostgresDb(pg!.url, { max: 1 });
    try {
      await admin.exec(`CREATE TABLE public.schema_migrations (version character varying NOT NULL PRIMARY KEY);
                        INSERT INTO public.schema_migrations VALUES ('20240101120000'), ('20240215093000');`);
      const first = await cli(['migrate', '--database', pg!.url, '--json']);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      const report = JSON.parse(first.stdout) as { schema: string; applied: number[]; current: number };
      const versions = loadMigrations().map((m) => m.version);
      expect(report).toEqual({ schema: 'brainstream', applied: versions, current: versions.at(-1) });
      expect(JSON.parse((await cli(['migrate', '--database', pg!.url, '--json'])).stdout)).toMatchObject({ applied: [] });
      expect(await admin.query('SELECT version FROM public.schema_migrations ORDER BY 1')).toEqual([{ version: '20240101120000' }, { version: '20240215093000' }]);
      expect((await admin.query<{ version: number }>('SELECT version FROM brainstream.schema_migrations ORDER BY 1')).map((r) => Number(r.version))).toEqual(versions);
    } finally {
      await admin.close();
    }
  });

  it('the schema comes from --schema, else BRAINSTREAM_PG_SCHEMA; a name that is no plain identifier is a usage error', async () => {
    const viaEnv = await cli(['migrate', '--database', pg!.url], { BRAINSTREAM_PG_SCHEMA: 'from_env' });
    expect(viaEnv).toMatchObject({ code: 0, stderr: '' });
    expect(viaEnv.stdout).toMatch(/^schema from_env: applied /);
    const viaFlag = await cli(['migrate', '--database', pg!.url, '--schema', 'from_flag'], { BRAINSTREAM_PG_SCHEMA: 'from_env' });
    expect(viaFlag.stdout).toMatch(/^schema from_flag: applied /);
    const bad = await cli(['migrate', '--database', pg!.url, '--schema', 'Robert"); DROP TABLE x;--']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^brainstream: --schema expects a lower-case identifier/);
  });

  it('every column of the statistics views is explained', async () => {
    const db = await openDistributedDb(pg!.url, { pool: 1, applicationName: 'schema-test-comments', schema: 'commented' });
    try {
      const rows = await db.query<{ view: string; column: string; comment: string | null; view_comment: string | null }>(
        `SELECT c.relname AS view, a.attname AS column, col_description(c.oid, a.attnum) AS comment, obj_description(c.oid, 'pg_class') AS view_comment
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid
          WHERE n.nspname = 'commented' AND c.relkind = 'v' AND a.attnum > 0 AND NOT a.attisdropped ORDER BY 1, a.attnum`,
      );
      expect(new Set(rows.map((r) => r.view))).toEqual(new Set(['volunteer_usage_events', 'volunteer_usage_daily', 'volunteer_precision_by_arm']));
      for (const r of rows) {
        expect(r.comment, `${r.view}.${r.column}`).toMatch(/\w{3,}/);
        expect(r.view_comment, r.view).toMatch(/\w{3,}/);
      }
    } finally {
      await db.close();
    }
  });

  it('an unreachable server is one database_unavailable line, within the connect timeout', async () => {
    const started = Date.now();
    const r = await cli(['migrate', '--database', 'postgres://postgres@127.0.0.1:1/nowhere']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^brainstream: database_unavailable: PostgreSQL at 127\.0\.0\.1:1\/nowhere is unreachable: .+\n$/);
    expect(Date.now() - started).toBeLessThan(15_000);
    const missing = new URL(pg!.url);
    missing.pathname = '/bs_no_such_database';
    const noDb = await cli(['migrate', '--database', missing.toString()]);
    expect(noDb.stderr).toMatch(/^brainstream: database_unavailable: .*does not exist/);
  });
});
