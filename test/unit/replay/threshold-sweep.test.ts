import { describe, expect, it } from 'vitest';
import { PageIndex } from '../../../src/context/page-index.js';
import { createWatchSession, stepWatchSession, type WatchSessionState } from '../../../src/context/watch-session.js';
import type { Turn } from '../../../src/context/turn.js';
import { createSweepSession, sweepTurn } from '../../../src/replay/threshold-sweep.js';

const FIRST = ['Alice', 'Bruno', 'Chiara', 'Dmitri', 'Esme', 'Farid', 'Greta', 'Hiro', 'Ines', 'Jonas'];
const LAST = ['Abernathy', 'Balogun', 'Castellanos', 'Dunmore', 'Eriksen'];

function brain(): PageIndex {
  const index = new PageIndex();
  FIRST.forEach((first, i) => {
    const last = LAST[i % LAST.length]!;
    index.upsert({
      source_id: 'default',
      slug: `people/${first.toLowerCase()}-${last.toLowerCase()}`,
      title: `${first} ${last}`,
      type: 'person',
      frontmatter: { aliases: i % 3 === 0 ? [first] : [] },
      compiled_truth: `${first} is someone we know.`,
      timeline: '',
    });
    index.upsert({
      source_id: 'default',
      slug: `projects/${first.toLowerCase()}-works`,
      title: `The ${first} Works Project`,
      type: 'project',
      frontmatter: {},
      compiled_truth: '',
      timeline: '',
    });
  });
  return index;
}

/** A deterministic conversation: turns naming 0–8 people by title, alias, surname or slug tail. */
function conversation(length: number, seed: number): Turn[] {
  let x = seed;
  const next = (n: number): number => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x % n;
  };
  return Array.from({ length }, (_, t) => {
    const names = Array.from({ length: next(9) }, () => {
      const i = next(FIRST.length);
      const form = next(4);
      return form === 0 ? `${FIRST[i]} ${LAST[i % LAST.length]}` : form === 1 ? FIRST[i]! : form === 2 ? LAST[i % LAST.length]! : `${FIRST[i]!.toLowerCase()}-works`;
    });
    return { role: t % 2 === 0 ? 'user' : 'assistant', text: names.length ? `Notes: ${names.join(', ')} met today.` : 'nothing to see here' };
  });
}

const GATES = [0, 0.6, 0.65, 0.7, 0.72, 0.77, 0.8, 0.85, 0.9, 0.95, 1];

describe('sweepTurn', () => {
  it.each([1, 2, 3, 5])('equals stepWatchSession run separately at every gate (max pages %i)', (maxPages) => {
    const index = brain();
    let crowded = 0;
    for (const seed of [1, 7, 42, 1234]) {
      const turns = conversation(40, seed);
      let sweep = createSweepSession(4, GATES.length);
      const naive: WatchSessionState[] = GATES.map(() => createWatchSession(4));
      turns.forEach((turn, i) => {
        const opts = { scope: ['default'], maxPages, lexicalArms: true, gazetteer: true, turn: i + 1 };
        // Turns with more pages than the largest cap take the re-decision path.
        if (stepWatchSession(sweep.base, turn, index, { ...opts, minConfidence: 0, maxPages: 5 }).volunteered.length === 5) crowded++;
        const step = sweepTurn(sweep, turn, index, GATES, opts);
        sweep = step.session;
        GATES.forEach((gate, g) => {
          const expected = stepWatchSession(naive[g]!, turn, index, { ...opts, minConfidence: gate });
          naive[g] = expected.state;
          expect(step.volunteered[g], `seed ${seed}, turn ${i + 1}, gate ${gate}`).toEqual(expected.volunteered);
          expect(step.turn).toBe(expected.turn);
        });
      });
    }
    expect(crowded).toBeGreaterThan(10);
  });

  it('harness turns (pointers, pages shown before, fresh decisions) mixed with plain turns: still exactly stepWatchSession at every gate', () => {
    const index = brain();
    const turns = conversation(40, 99);
    let sweep = createSweepSession(4, GATES.length);
    const naive: WatchSessionState[] = GATES.map(() => createWatchSession(4));
    turns.forEach((turn, i) => {
      const harness = turn.role === 'user' && i % 4 === 0;
      const opts = {
        scope: ['default'], maxPages: 3, lexicalArms: true, gazetteer: true, turn: i + 1,
        ...(harness ? { pointers: 3, shown: i === 8 ? ['people/alice-abernathy'] : [] } : {}),
        // Some harness turns were decided on the cold path: on themselves, not the session.
        ...(harness && i % 8 === 0 ? { fresh: true } : {}),
      };
      const step = sweepTurn(sweep, turn, index, GATES, opts);
      sweep = step.session;
      GATES.forEach((gate, g) => {
        const expected = stepWatchSession(naive[g]!, turn, index, { ...opts, minConfidence: gate });
        naive[g] = expected.state;
        expect(step.volunteered[g], `turn ${i + 1}, gate ${gate}`).toEqual([...expected.pointers, ...expected.volunteered]);
      });
    });
  });
});
