import { describe, expect, it } from 'vitest';
import { remoteCaller } from '../../../src/caller.js';
import { putPage } from '../../../src/ops/page-ops.js';
import { remember } from '../../../src/ops/remember.js';
import { storageDrivers } from '../../support/databases.js';
import { coreBrain, md, owner, type CoreBrain } from './core-brain.js';

const drivers = await storageDrivers();
const item = (fact: string, extra: Record<string, unknown> = {}) => ({ fact, provenance: 'standup 2026-04-07', ...extra });
const eventsOf = async (b: CoreBrain, type: string): Promise<number> =>
  Number((await b.brain.db.query<{ n: number | string }>('SELECT count(*) AS n FROM events WHERE type = $1', [type]))[0].n);

describe.each(drivers)('request_id replay under concurrent calls on $name', ({ open }) => {
  it('two in-flight calls with one request_id: one set of writes, both get the same outcomes', async () => {
    const b = await coreBrain(await open());
    try {
      await putPage(b.brain, owner, 'people/alice', md('title: Alice', 'Alice.'));
      const caller = remoteCaller('default', undefined, 'mcp:agent');
      const params = { items: [item('Alice prefers email', { entity: 'people/alice' }), item('Standup is at nine')], request_id: 'batch-1' };
      const [first, second] = await Promise.all([remember(b.brain, caller, params), remember(b.brain, caller, structuredClone(params))]);
      expect(second).toEqual(first);
      expect(first).toMatchObject({
        items: [
          { index: 0, status: 'inserted', status_text: 'saved on people/alice as row #1' },
          { index: 1, status: 'inserted', status_text: 'saved in the fact store' },
        ],
        partial: false,
        request_id: 'batch-1',
      });
      expect(await eventsOf(b, 'fact.recorded')).toBe(2);
      expect(await eventsOf(b, 'remember.request_completed')).toBe(1);
      // A later replay is still the same response, and writes nothing.
      expect(await remember(b.brain, caller, params)).toEqual(first);
      expect(await eventsOf(b, 'fact.recorded')).toBe(2);
    } finally {
      b.cleanup();
    }
  });

  it('a concurrent call reusing the request_id with other items is refused and writes nothing', async () => {
    const b = await coreBrain(await open());
    try {
      const caller = remoteCaller('default', undefined, 'mcp:agent');
      const [kept, refused] = await Promise.allSettled([
        remember(b.brain, caller, { items: [item('Deploys happen on Tuesdays')], request_id: 'batch-2' }),
        remember(b.brain, caller, { items: [item('Deploys happen on Fridays')], request_id: 'batch-2' }),
      ]);
      expect(kept).toMatchObject({ status: 'fulfilled', value: { items: [{ status: 'inserted' }], partial: false } });
      expect(refused).toMatchObject({ status: 'rejected', reason: { code: 'invalid_params', message: 'request_id reused with different items' } });
      expect(await eventsOf(b, 'fact.recorded')).toBe(1);
      // The same request_id from another caller identity is a different request.
      const other = await remember(b.brain, remoteCaller('default', undefined, 'mcp:other'), { items: [item('Deploys happen on Fridays')], request_id: 'batch-2' });
      expect(other).toMatchObject({ items: [{ status: 'inserted' }] });
    } finally {
      b.cleanup();
    }
  });
});
