import type { Db } from '../src/db/db.js';
import type { EmbeddedEventLog } from '../src/event-log/embedded-log.js';
import { rebuildProjection } from '../src/event-log/rebuild-projection.js';
import { logger } from '../src/logger.js';
import type { Projection } from './registry.js';

export interface VersionCheck {
  /** Projections rebuilt because the code folds them differently from the tables' version. */
  rebuilt: string[];
  /** Projections first seen here: their tables are taken as built by this version. */
  recorded: string[];
}

/**
 * Brings each projection's tables to the version of its fold in the code. A projection with no
 * recorded version is taken as current (a new home, or a home from before versions were kept,
 * whose tables this release reads as they are). A lower recorded version is rebuilt from the log
 * and then recorded; a higher one (the package was downgraded) is left alone with a warning, since
 * an older fold cannot know what a newer one wrote.
 */
export async function rebuildChangedProjections(db: Db, log: EmbeddedEventLog, projections: readonly Projection[]): Promise<VersionCheck> {
  const rows = await db.query<{ projection: string; version: number }>('SELECT projection, version FROM projection_versions');
  const stored = new Map(rows.map((r) => [r.projection, Number(r.version)]));
  const check: VersionCheck = { rebuilt: [], recorded: [] };
  for (const p of projections) {
    const version = stored.get(p.name);
    if (version === p.version) continue;
    if (version === undefined) {
      check.recorded.push(p.name);
    } else if (version > p.version) {
      logger.warn({ projection: p.name, tables: version, code: p.version }, `${p.name} was built by a newer release; it is used as it is`);
      continue;
    } else {
      logger.info({ projection: p.name, from: version, to: p.version }, `${p.name} folds differently in this release; rebuilding it from the log`);
      await rebuildProjection(db, log, p);
      check.rebuilt.push(p.name);
    }
    await db.query(
      `INSERT INTO projection_versions (projection, version) VALUES ($1, $2)
       ON CONFLICT (projection) DO UPDATE SET version = EXCLUDED.version, updated_at = now()`,
      [p.name, p.version],
    );
  }
  return check;
}
