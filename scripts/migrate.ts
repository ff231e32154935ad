import { migrate } from '../src/db/migrate.js';
import { openPostgresDb } from '../src/db/postgres-db.js';

/** Applies the migrations to the PostgreSQL database at the given URL (or DATABASE_URL). */
const url = process.argv[2] ?? process.env.DATABASE_URL;
if (!url) {
  process.stderr.write('usage: node dist/scripts/migrate.js POSTGRES_URL (or set DATABASE_URL)\n');
  process.exit(2);
}
const db = openPostgresDb(url);
try {
  const applied = await migrate(db);
  process.stdout.write(`migrations applied: ${applied.length === 0 ? 'none (up to date)' : applied.join(', ')}\n`);
} finally {
  await db.close();
}
