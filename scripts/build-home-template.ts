import { PGlite } from '@electric-sql/pglite';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { engineVersion, expectedManifest, TEMPLATE_ARCHIVE, TEMPLATE_MANIFEST, templateDir, templateMismatch } from '../src/db/home-template.js';
import { loadMigrations, migrate } from '../src/db/migrate.js';
import { wrapPglite } from '../src/db/pglite-db.js';

/**
 * Build step: the database every new home starts from — the embedded engine's data directory
 * after all migrations, dumped as a tarball with a manifest naming the engine version and the
 * migrations it holds (a home never uses a template that does not match them). Skipped when the
 * template in place already matches.
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
await pg.exec('CHECKPOINT');
const dump = await pg.dumpDataDir('gzip');
await pg.close();
mkdirSync(dir, { recursive: true });
const archive = join(dir, TEMPLATE_ARCHIVE);
writeFileSync(`${archive}.tmp`, Buffer.from(await dump.arrayBuffer()));
renameSync(`${archive}.tmp`, archive);
// The manifest last: a build interrupted before this point leaves no matching template.
writeFileSync(join(dir, TEMPLATE_MANIFEST), `${JSON.stringify(expected, null, 2)}\n`);
process.stdout.write(`home template: ${expected.migrations.length} migrations, engine ${expected.engine}\n`);
