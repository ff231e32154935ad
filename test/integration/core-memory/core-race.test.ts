import { afterAll, describe, expect, it } from 'vitest';
import type { Brain } from '../../../src/brain/brain.js';
import type { Db } from '../../../src/db/db.js';
import { renderBrainWideBlock } from '../../../src/core-memory/core-block.js';
import { CoreBudgetExceededError } from '../../../src/core-memory/errors.js';
import { openPostgresDb } from '../../../src/db/postgres-db.js';
import { deletePage, putPage } from '../../../src/ops/page-ops.js';
import { loadCoreRows } from '../../../projections/pages-queries.js';
import { storageDrivers } from '../../support/databases.js';
import { postgresOrSkip } from '../../support/services.js';
import { coreBrain, md, owner, putCore } from './core-brain.js';

const MAX = 1000;
const ROUNDS = 100;
const drivers = await storageDrivers();
const pglite = drivers.find((d) => d.name === 'pglite')!;
const postgres = drivers.find((d) => d.name === 'postgres');
const pg = await postgresOrSkip();
afterAll(() => pg?.dropDatabase());

const blockChars = async (brain: Brain): Promise<number> => renderBrainWideBlock(await loadCoreRows(brain.db), '2026-04-07').chars;

/** Fills core to exactly MAX - 300 characters with one page. */
async function fillTo300Left(brain: Brain): Promise<void> {
  await putCore(brain, 'base', 'x');
  const text = 'x'.repeat(1 + MAX - 300 - (await blockChars(brain)));
  await putCore(brain, 'base', text);
  expect(await blockChars(brain)).toBe(MAX - 300);
}

/** A racer page whose section plus its separator is exactly 300 characters. */
const racer = (slug: string): string => md('title: R\nalways_load: true', 'y'.repeat(300 - 2 - `## R (${slug})\n\n`.length));

/** Two writers race for the last 300 characters; exactly one wins and core lands on MAX. */
async function raceOnce(a: Brain, b: Brain, round: number): Promise<void> {
  const slugs = [`race/a${String(round).padStart(4, '0')}`, `race/b${String(round).padStart(4, '0')}`];
  const results = await Promise.allSettled([putPage(a, owner, slugs[0], racer(slugs[0])), putPage(b, owner, slugs[1], racer(slugs[1]))]);
  const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [slugs[i]] : []));
  const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  expect(won).toHaveLength(1);
  expect(lost).toHaveLength(1);
  expect(lost[0]).toBeInstanceOf(CoreBudgetExceededError);
  expect((lost[0] as CoreBudgetExceededError).details).toMatchObject({ reason: 'max_chars', current_chars: MAX, projected_chars: MAX + 300, over_by: 300 });
  expect(await blockChars(a)).toBe(MAX);
  // Deleting the winner is a shrink: always allowed, and it reopens the last 300 characters.
  await deletePage(a, owner, 'default', won[0]);
  expect(await blockChars(a)).toBe(MAX - 300);
}

/** One brain (one process): two concurrent writers, `ROUNDS` races one after another. */
async function raceOnOneBrain(db: Db): Promise<void> {
  const { brain, cleanup } = await coreBrain(db, { 'memory.core.max_chars': MAX });
  try {
    await fillTo300Left(brain);
    for (let round = 0; round < ROUNDS; round++) await raceOnce(brain, brain, round);
  } finally {
    cleanup();
  }
}

// PGlite runs one transaction at a time on its single connection, so on PGlite two writers never
// truly overlap, lock or no lock: this variant checks what the loser gets, not the locking. The
// PostgreSQL variants below are the real races (they fail without the lock).
describe('budget guard on PGlite (transactions already serialised)', () => {
  it(`two concurrent writers for the last 300 characters: the second is refused with the projected figures, ${ROUNDS} rounds in a row`, async () => {
    await raceOnOneBrain(await pglite.open());
  });
});

describe.skipIf(!postgres)('budget guard under truly concurrent writers on PostgreSQL', () => {
  it(`one brain, two concurrent writers racing to the last 300 characters: exactly one wins, ${ROUNDS} rounds in a row`, async () => {
    await raceOnOneBrain(await postgres!.open());
  });

  it(`two brains on separate connections (no shared mutex, only the advisory lock): exactly one wins, ${ROUNDS} rounds in a row`, async () => {
    const one = await coreBrain(openPostgresDb(pg!.url), { 'memory.core.max_chars': MAX });
    const twoDb = openPostgresDb(pg!.url);
    const two = await coreBrain(twoDb, { 'memory.core.max_chars': MAX });
    try {
      await fillTo300Left(one.brain);
      await two.brain.catchUp();
      for (let round = 0; round < ROUNDS; round++) await raceOnce(one.brain, two.brain, round);
    } finally {
      await one.brain.db.close();
      await twoDb.close();
      one.cleanup();
      two.cleanup();
    }
  });
});
