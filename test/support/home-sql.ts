import { PGlite } from '@electric-sql/pglite';
import { homePaths } from '../../src/brain/home.js';

/** Runs SQL on a home's embedded database while no brainstream process holds it; the last statement's rows. */
export async function homeSql<T = Record<string, unknown>>(home: string, query: string): Promise<T[]> {
  const db = new PGlite(homePaths(home).database);
  try {
    const results = await db.exec(query);
    return (results.at(-1)?.rows ?? []) as T[];
  } finally {
    await db.close();
  }
}
