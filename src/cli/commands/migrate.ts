import type { Command } from 'commander';
import { databaseUrl, pgSchema, withDatabaseOptions, type KafkaFlags } from '../kafka-flags.js';
import { commandContext } from '../globals.js';
import { outJson, outLine } from '../output.js';

/**
 * `brainstream migrate`: applies the distributed mode's migrations to a PostgreSQL database, in
 * the deployment's schema, and says which it applied. Members migrate at start anyway; this lets
 * an operator do it ahead of a deploy, with a role that may create the schema.
 */
export function registerMigrate(program: Command): void {
  withDatabaseOptions(
    program
      .command('migrate')
      .description('apply the distributed mode’s PostgreSQL migrations in the deployment’s schema (creating it when missing)')
      .option('--json', 'print {"schema","applied":[versions],"current":version}'),
  ).action(async (flags: KafkaFlags & { json?: boolean }, cmd: Command) => {
    const url = databaseUrl(flags);
    const schema = pgSchema(flags);
    const ctx = commandContext(cmd);
    const [{ openPostgresDb }, { migrate, loadMigrations }, { asDatabaseUnavailable }, { withApplicationName }] = await Promise.all([
      import('../../db/postgres-db.js'),
      import('../../db/migrate.js'),
      import('../../db/database-unavailable.js'),
      import('../../distributed/distributed-db.js'),
    ]);
    const named = withApplicationName(url, 'brainstream-migrate');
    const db = openPostgresDb(named, { max: 1, schema });
    try {
      const migrations = loadMigrations();
      const applied = await migrate(db, migrations, { schema }).catch((err: unknown) => {
        throw asDatabaseUnavailable(err, named);
      });
      const current = Math.max(...migrations.map((m) => m.version));
      if (ctx.json || flags.json) outJson({ schema, applied, current });
      else outLine(applied.length === 0 ? `schema ${schema}: up to date (version ${current})` : `schema ${schema}: applied ${applied.join(', ')} (now at version ${current})`);
    } finally {
      await db.close().catch(() => {});
    }
  });
}
