import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { logger } from '../logger.js';
import { packageRoot } from '../package-root.js';
import { loadMigrations, type Migration } from './migrate.js';
import { extractTar } from './untar.js';

/**
 * A new home's database starts as a copy of a data directory made at build time (the embedded
 * database after every migration), instead of running initdb and the migrations on the user's
 * machine: that costs seconds of CPU and about three times the memory of opening a database.
 * The copy is used only when it was made by the same database engine version from exactly the
 * migrations this package ships; otherwise the home is created the slow way.
 */

export const templateDir = (): string => join(packageRoot(), 'dist', 'home-template');
export const TEMPLATE_ARCHIVE = 'pgdata.tar.gz';
export const TEMPLATE_MANIFEST = 'manifest.json';
const CHUNK = 256 * 1024;

export interface TemplateManifest {
  /** 2: the dump holds the brain's database alone (no template databases, log maps or recycled log). */
  format: 2;
  engine: string;
  migrations: { version: number; name: string; sha256: string }[];
}

/** The version of the embedded database engine installed with this package. */
export function engineVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  let dir = dirname(entry);
  for (let i = 0; i < 4; i++, dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === '@electric-sql/pglite' && pkg.version) return pkg.version;
  }
  throw new Error('cannot find the version of @electric-sql/pglite');
}

/** What a template must have been made from to be usable now. */
export function expectedManifest(migrations: readonly Migration[], engine: string): TemplateManifest {
  return {
    format: 2,
    engine,
    migrations: migrations.map((m) => ({ version: m.version, name: m.name, sha256: createHash('sha256').update(m.sql).digest('hex') })),
  };
}

/** Why `found` cannot stand in for a database migrated now, or null when it can. */
export function templateMismatch(found: unknown, expected: TemplateManifest): string | null {
  if (typeof found !== 'object' || found === null) return 'no template manifest';
  const f = found as Partial<TemplateManifest>;
  if (f.format !== expected.format) return 'template format differs';
  if (f.engine !== expected.engine) return `template made by engine ${String(f.engine)}, installed ${expected.engine}`;
  if (JSON.stringify(f.migrations) !== JSON.stringify(expected.migrations)) return 'template made from other migrations';
  return null;
}

function readManifest(dir: string): unknown {
  try {
    return JSON.parse(readFileSync(join(dir, TEMPLATE_MANIFEST), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Creates the database folder `dataDir` from the template when it does not exist yet and the
 * template matches this package. The copy is written beside it and renamed into place, so a
 * crash leaves either no database (created again next time) or a complete one. The caller holds
 * the brain lock. Returns whether the template was used.
 */
export async function seedFromTemplate(dataDir: string, dir = templateDir(), migrations = loadMigrations()): Promise<boolean> {
  if (existsSync(dataDir)) return false;
  const mismatch = templateMismatch(readManifest(dir), expectedManifest(migrations, engineVersion()));
  if (mismatch) {
    logger.debug({ reason: mismatch }, 'creating the database without the prebuilt template');
    return false;
  }
  const staging = `${dataDir}.seeding`;
  rmSync(staging, { recursive: true, force: true });
  try {
    // Large chunks: with the default 16 KiB ones, moving chunks between the decompressor's thread
    // and this one costs more than the decompression.
    const chunks = createReadStream(join(dir, TEMPLATE_ARCHIVE), { highWaterMark: CHUNK }).pipe(createGunzip({ chunkSize: CHUNK }));
    await extractTar(chunks, staging);
    // The dump was taken from a running engine: its pid file means nothing here.
    rmSync(join(staging, 'postmaster.pid'), { force: true });
    renameSync(staging, dataDir);
    return true;
  } catch (err) {
    logger.warn({ err }, 'the prebuilt database template is unusable; creating the database instead');
    rmSync(staging, { recursive: true, force: true });
    return false;
  }
}
