import { migrate } from '../src/db/migrate.js';
import { openPostgresDb } from '../src/db/postgres-db.js';

/**
 * Applies the migrations to the PostgreSQL database at the given URL (or DATABASE_URL).
 * `--scratch`: applies them to a new database on that server instead, checks that a second run
 * applies nothing, and drops it (CI's check that the SQL runs on a real server).
 */
const args = process.argv.slice(2);
const scratch = args.includes('--scratch');
const url = args.find((a) => a !== '--scratch') ?? process.env.DATABASE_URL;
if (!url) {
  process.stderr.write('usage: node dist/scripts/migrate.js [--scratch] POSTGRES_URL (or set DATABASE_URL)\n');
  process.exit(2);
}

async function migrateOnce(target: string): Promise<number[]> {
  const db = openPostgresDb(target);
  try {
    return await migrate(db);
  } finally {
    await db.close();
  }
}

const report = (applied: number[]): string => (applied.length === 0 ? 'none (up to date)' : applied.join(', '));

if (!scratch) {
  process.stdout.write(`migrations applied: ${report(await migrateOnce(url))}\n`);
} else {
  const name = `brainstream_migrate_${process.pid}`;
  const target = new URL(url);
  target.pathname = `/${name}`;
  const admin = openPostgresDb(url, { max: 1 });
  await admin.exec(`CREATE DATABASE ${name}`);
  try {
    const applied = await migrateOnce(target.toString());
    const again = await migrateOnce(target.toString());
    if (again.length > 0) throw new Error(`a second run applied ${report(again)}`);
    process.stdout.write(`migrations applied to a scratch database: ${report(applied)}; a second run applied none\n`);
  } finally {
    await admin.exec(`DROP DATABASE IF EXISTS ${name}`);
    await admin.close();
  }
}
