// `core_ack`, the owner-only operation: the owner acknowledges a pending remote revision through
// the registry as `core ack` does; a remote caller is refused and the notice stays.
import { describe, expect, it } from 'vitest';
import { readPendingCoreNotices } from '../../../projections/core-notices-queries.js';
import { localOpContext } from '../../../src/ops/operations/local-op-context.js';
import { errorEnvelope, runOperation } from '../../../src/ops/registry.js';
import { putPage } from '../../../src/ops/page-ops.js';
import { storageDrivers } from '../../support/databases.js';
import { coreBrain, md, owner, putCore, remote } from './core-brain.js';

const drivers = await storageDrivers();

describe.each(drivers)('the core_ack operation on $name', ({ open }) => {
  it('acks for the owner; refuses a remote caller with owner_only and leaves the notice', async () => {
    const b = await coreBrain(await open());
    await putCore(b.brain, 'prefs', 'line 1'); // r1
    await putPage(b.brain, remote, 'prefs', md('title: Prefs', 'line 1 (remote)')); // r2, pending
    const ack = (caller: typeof owner) => runOperation(localOpContext(b.brain, caller, b.home), 'core_ack', { slug: 'prefs', revision: 'r2' });
    const refused = await ack(remote).then(
      () => null,
      (err: unknown) => errorEnvelope(err),
    );
    expect(refused).toEqual({ error: 'owner_only', message: 'core_ack is an owner-only operation; ask the user to run it on the brain host' });
    expect(await readPendingCoreNotices(b.brain.db)).toEqual([{ source_id: 'default', slug: 'prefs', revision: 2 }]);
    expect(await ack(owner)).toEqual({ source_id: 'default', slug: 'prefs', revision: 'r2', pending: null });
    expect(await readPendingCoreNotices(b.brain.db)).toEqual([]);
    b.cleanup();
  });
});
