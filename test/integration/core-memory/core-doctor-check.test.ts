import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coreMemoryDoctor } from '../../../src/doctor/core-memory-doctor.js';
import { deletePage, putPage } from '../../../src/ops/page-ops.js';
import { storageDrivers } from '../../support/databases.js';
import { coreBrain, md, owner, putCore } from './core-brain.js';

const drivers = await storageDrivers();

/** A socket owner answering ping like a serve built before the core guard. */
async function oldServe(home: string): Promise<Server> {
  mkdirSync(join(home, 'run'), { recursive: true });
  writeFileSync(join(home, 'run', 'serve.secret'), 'secret');
  const server = createServer((socket) => {
    socket.once('data', () => socket.end(`${JSON.stringify({ v: 1, ok: true, role: 'serve', pid: 4242, capabilities: ['turn_context', 'core_block'] })}\n`));
  });
  await new Promise<void>((r) => server.listen(join(home, 'run', 'serve.sock'), r));
  return server;
}

describe.each(drivers.slice(0, 1))('doctor check core_memory with real inputs on $name', ({ open }) => {
  it('reports over budget, out-of-range settings, deleted and withheld core pages, and a pre-guard writer; each with its fix', async () => {
    const b = await coreBrain(await open(), { 'memory.core.enabled': true, 'memory.core.max_chars': 9000, 'memory.core.remote_edit': 'sometimes' });
    await putCore(b.brain, 'gone', 'G');
    await deletePage(b.brain, owner, 'default', 'gone');
    await putCore(b.brain, 'secret', 'S', 'visibility: private');
    await putPage(b.brain, { ...owner, source: 'work' }, 'held', md('title: held\nalways_load: true\nquarantine: true', 'Q'));
    const server = await oldServe(b.home);
    try {
      const check = await coreMemoryDoctor({ home: b.home, db: b.brain.db, sources: null, now: new Date() });
      expect(check.status).toBe('warn');
      expect(check.details).toMatchObject({ enabled: true, max_chars: 6000, page_count: 2, over_by: 0 });
      expect(check.details.findings.map((f) => `${f.kind} ${f.subject} — fix: ${f.fix}`)).toEqual([
        'out_of_range_setting memory.core.max_chars — fix: brainstream config set memory.core.max_chars 6000',
        'out_of_range_setting memory.core.remote_edit — fix: brainstream config set memory.core.remote_edit notify',
        'deleted_core_page default:gone — fix: brainstream core remove --source default gone (works on deleted rows) or re-create it',
        'withheld_core_page default:secret — fix: change its visibility, or brainstream core remove --source default secret',
        'withheld_core_page work:held — fix: review it and clear quarantine, or brainstream core remove --source work held',
        'pre_guard_writer serve (pid 4242) — fix: restart it on the current build',
      ]);
      expect(check.message).toMatch(/^6 finding\(s\): out_of_range_setting memory\.core\.max_chars — fix: /);
      // A caller scoped to `default` is not told about pages of other sources.
      const scoped = await coreMemoryDoctor({ home: b.home, db: b.brain.db, sources: ['default'], now: new Date() });
      expect(scoped.details.findings.some((f) => f.source_id === 'work')).toBe(false);
    } finally {
      await new Promise((r) => server.close(r));
    }
    b.setConfig({});
    const off = await coreMemoryDoctor({ home: b.home, db: b.brain.db, sources: null, now: new Date() });
    expect(off.status).toBe('ok');
    expect(off.message).toMatch(/^core memory is off; 3 finding\(s\)/);
    b.cleanup();
  });
});
