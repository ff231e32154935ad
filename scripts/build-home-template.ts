import { PGlite } from '@electric-sql/pglite';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { engineVersion, expectedManifest, TEMPLATE_ARCHIVE, TEMPLATE_MANIFEST, templateDir, templateMismatch } from '../src/db/home-template.js';
import { loadMigrations, migrate } from '../src/db/migrate.js';
import { quoteIdent } from '../src/db/pg-schema.js';
import { wrapPglite } from '../src/db/pglite-db.js';

/**
 * Build step: the database every new home starts from — the embedded engine's data directory
 * after all migrations, dumped as a tarball with a manifest naming the engine version and the
 * migrations it holds (a home never uses a template that does not match them). Skipped when the
 * template in place already matches.
 *
 * A new home pays for every file of the dump it writes (file creation, not bytes, is most of the
 * cost), so the dump holds only what the brain's database needs to open: the template databases
 * initdb makes (brainstream never creates a database) are dropped, the write-ahead log is
 * reduced to the one segment holding the last checkpoint, and the free-space and visibility
 * maps, which the engine recreates when it needs them, are left out.
 */
const dir = templateDir();
const expected = expectedManifest(loadMigrations(), engineVersion());
let current: unknown = null;
try {
  current = JSON.parse(readFileSync(join(dir, TEMPLATE_MANIFEST), 'utf8'));
} catch {
  // none yet
}
if (templateMismatch(current, expected) === null) process.exit(0);

const pg = new PGlite();
await pg.waitReady;
await migrate(wrapPglite(pg));
await dropOtherDatabases(pg);
await pg.query('SELECT pg_switch_wal()');
await pg.exec('CHECKPOINT');
const [{ segment }] = (await pg.query<{ segment: string }>('SELECT pg_walfile_name(pg_current_wal_lsn()) AS segment')).rows as [{ segment: string }];
const fs = pg.Module.FS;
const walDir = `${PGlite.paths.PGDATA}/pg_wal`;
// Segments other than the current one are recycled files of the migrations' log, not needed to start.
for (const name of fs.readdir(walDir)) if (/^[0-9A-F]{24}$/.test(name) && name !== segment) fs.unlink(`${walDir}/${name}`);
removeRelationMaps(fs, `${PGlite.paths.PGDATA}/base`);
const dump = await pg.dumpDataDir('gzip');
await pg.close();
mkdirSync(dir, { recursive: true });
const archive = join(dir, TEMPLATE_ARCHIVE);
writeFileSync(`${archive}.tmp`, Buffer.from(await dump.arrayBuffer()));
renameSync(`${archive}.tmp`, archive);
// The manifest last: a build interrupted before this point leaves no matching template.
writeFileSync(join(dir, TEMPLATE_MANIFEST), `${JSON.stringify(expected, null, 2)}\n`);
process.stdout.write(`home template: ${expected.migrations.length} migrations, engine ${expected.engine}\n`);

async function dropOtherDatabases(db: PGlite): Promise<void> {
  const others = (await db.query<{ name: string }>('SELECT datname AS name FROM pg_database WHERE datname <> current_database()')).rows;
  await db.exec('UPDATE pg_database SET datistemplate = false WHERE datname <> current_database()');
  for (const { name } of others) await db.exec(`DROP DATABASE ${quoteIdent(name)}`);
}

type EngineFs = PGlite['Module']['FS'];

/** Deletes the free-space (`_fsm`) and visibility (`_vm`) map forks of every relation under `dir`. */
function removeRelationMaps(fs: EngineFs, dir: string): void {
  for (const name of fs.readdir(dir)) {
    if (name === '.' || name === '..') continue;
    const path = `${dir}/${name}`;
    if (fs.isDir(fs.stat(path).mode)) removeRelationMaps(fs, path);
    else if (/^\d+_(fsm|vm)$/.test(name)) fs.unlink(path);
  }
}
