import { PGlite } from '@electric-sql/pglite';
import { openBrain } from '../../src/brain/brain.js';
import { homePaths } from '../../src/home.js';

/**
 * Runs SQL on a home's embedded database while no brainstream process holds it; the last
 * statement's rows. The home is first opened as its next owner would open it (migrated, caught
 * up, cold-path events appended), so what a command logged is there to read.
 */
export async function homeSql<T = Record<string, unknown>>(home: string, query: string): Promise<T[]> {
  await (await openBrain(home)).close();
  const db = new PGlite(homePaths(home).database);
  try {
    const results = await db.exec(query);
    return (results.at(-1)?.rows ?? []) as T[];
  } finally {
    await db.close();
  }
}
