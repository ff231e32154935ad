import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrain } from '../../../src/brain/brain.js';
import { ownerCaller } from '../../../src/caller.js';
import { coldPaths, markSnapshotBehind, snapshotCurrent } from '../../../src/cold/cold-files.js';
import { coldOneShot } from '../../../src/ops/cold-one-shot.js';
import { coldTurnContext } from '../../../src/cold/cold-turn-context.js';
import { readCoreCache } from '../../../src/hooks/core-cache.js';
import { putPage } from '../../../src/ops/page-ops.js';
import { refreshColdFiles } from '../../../src/serve/core-cache-file.js';

const home = mkdtempSync(join(tmpdir(), 'bs-cold-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const OWNER = ownerCaller();
const oneShot = (window: string, extra: Record<string, unknown> = {}) =>
  coldOneShot(home, OWNER, { window, lexicalArms: true, gazetteer: true, ...extra });

async function volunteeredRows(): Promise<Array<{ slug: string; channel: string; session_id: string | null }>> {
  const brain = await openBrain(home);
  try {
    return await brain.db.query('SELECT slug, channel, session_id FROM context_volunteer_events ORDER BY slug, channel');
  } finally {
    await brain.close();
  }
}

/** Writes pages as a short-lived command does: the snapshot is rewritten before the brain closes. */
async function withPages(pages: Record<string, string>): Promise<void> {
  const brain = await openBrain(home);
  try {
    for (const [slug, md] of Object.entries(pages)) await putPage(brain, OWNER, slug, md);
    await refreshColdFiles(brain, home);
  } finally {
    await brain.close();
  }
}

describe('the cold path: decide from the page snapshot, log through the spool', () => {
  beforeAll(async () => {
    await withPages({
      'games/cyberpunk-2077': '---\ntitle: Cyberpunk 2077\n---\nA game.\n',
      'people/alice-example': '---\ntitle: Alice Example\ntype: person\n---\nAlice works at Acme.\n',
      'notes/vault': '---\ntitle: Vault Plans\nvisibility: private\n---\nsecret\n',
    });
  });

  it('a written snapshot is current; committing pages marks it behind until it is rewritten', async () => {
    expect(snapshotCurrent(home)).toBe(true);
    const brain = await openBrain(home);
    try {
      await putPage(brain, OWNER, 'companies/acme', '---\ntitle: Acme Corp\n---\nA company.\n');
      expect(snapshotCurrent(home)).toBe(false);
      expect(oneShot('user: Acme Corp called')).toBeNull();
      await refreshColdFiles(brain, home);
      expect(snapshotCurrent(home)).toBe(true);
    } finally {
      await brain.close();
    }
    expect(oneShot('user: Acme Corp called')!.pages.map((p) => p.slug)).toEqual(['companies/acme']);
  });

  it('one-shot decides without the database and its events reach the log exactly once at the next open', async () => {
    await volunteeredRows(); // appends what earlier calls spooled
    const result = oneShot('user: I finished Cyberpunk 2077 and asked Alice Example', { sessionId: 's-1', turn: 4 });
    expect(result!.pages.map((p) => p.slug).sort()).toEqual(['games/cyberpunk-2077', 'people/alice-example']);
    const spooled = readdirSync(coldPaths(home).spool);
    expect(spooled).toHaveLength(1);
    // A crash after the append and before the file's removal: the same file is applied twice.
    copyFileSync(join(coldPaths(home).spool, spooled[0]!), join(coldPaths(home).spool, spooled[0]!.replace(/^\d{13}/u, (t) => String(Number(t) + 1))));
    const rows = (await volunteeredRows()).filter((r) => r.session_id === 's-1');
    expect(rows.map((r) => r.slug).sort()).toEqual(['games/cyberpunk-2077', 'people/alice-example']);
    expect(readdirSync(coldPaths(home).spool)).toEqual([]);
  });

  it('a private page never reaches a remote caller on the cold path', () => {
    const remote = { kind: 'remote' as const, source: 'default', grant: null, identity: 'remote' };
    expect(coldOneShot(home, remote, { window: 'user: the Vault Plans', lexicalArms: true, gazetteer: true })!.pages).toEqual([]);
    expect(oneShot('user: the Vault Plans')!.pages.map((p) => p.slug)).toEqual(['notes/vault']);
    // The prompt hook decides with the agent's MCP caller rights, as serve does.
    expect(coldTurnContext(home, { window: [{ role: 'user', text: 'open the Vault Plans' }] })!.text).toBe('');
  });

  it('the hook block is assembled cold; at the next open its turn is numbered, logged and decided on the harness channel', async () => {
    const block = coldTurnContext(home, { window: [{ role: 'user', text: 'ping Alice Example today' }], session_id: 'hook-1', channel: 'codex' });
    expect(block!.text).toContain('people/alice-example');
    const again = coldTurnContext(home, { window: [{ role: 'user', text: 'Cyberpunk 2077 tonight?' }], session_id: 'hook-1', channel: 'codex' });
    expect(again!.pointers.map((p) => p.slug)).toEqual(['games/cyberpunk-2077']);
    const rows = (await volunteeredRows()).filter((r) => r.session_id === 'hook-1');
    expect(rows).toEqual([
      { slug: 'games/cyberpunk-2077', channel: 'codex', session_id: 'hook-1' },
      { slug: 'people/alice-example', channel: 'codex', session_id: 'hook-1' },
    ]);
    const brain = await openBrain(home);
    try {
      const turns = (await brain.log.read(1, { topics: ['turns'], limit: 100 })).events.filter((e) => e.event.key === 'hook-1');
      expect(turns.map((e) => e.event.data)).toMatchObject([
        { turn: 1, role: 'user', text: 'ping Alice Example today', channel: 'codex', settings: { fresh: true, remote: true } },
        { turn: 2, role: 'user', text: 'Cyberpunk 2077 tonight?', channel: 'codex', settings: { fresh: true, remote: true } },
      ]);
    } finally {
      await brain.close();
    }
  });

  it('a spooled entry that does not decode becomes a dead letter; the rest is appended', async () => {
    oneShot('user: Alice Example again', { sessionId: 's-2', turn: 1 });
    writeFileSync(join(coldPaths(home).spool, `${String(Date.now()).padStart(13, '0')}-00000000-0000-0000-0000-000000000000.json`), '[{"type":"nope"}]');
    const brain = await openBrain(home);
    try {
      const dead = await brain.db.query<{ origin: string; reason: string }>(`SELECT origin, reason FROM dead_letters WHERE origin = 'spool'`);
      expect(dead).toHaveLength(1);
      const rows = await brain.db.query(`SELECT slug FROM context_volunteer_events WHERE session_id = 's-2'`);
      expect(rows).toEqual([{ slug: 'people/alice-example' }]);
    } finally {
      await brain.close();
    }
    expect(readdirSync(coldPaths(home).spool)).toEqual([]);
  });

  it('a command that writes a core page while serve is down leaves the core block for session start', async () => {
    await withPages({ 'people/me': '---\ntitle: About Me\nalways_load: true\n---\nI prefer short answers.\n' });
    expect(readCoreCache(home, 'default')!.text).toContain('I prefer short answers.');
  });

  it('a snapshot left behind by a crash keeps the cold path off until an owner rewrites it', async () => {
    markSnapshotBehind(home);
    expect(oneShot('user: Alice Example')).toBeNull();
    expect(coldTurnContext(home, { window: [{ role: 'user', text: 'Alice Example' }] })).toBeNull();
    await withPages({});
    expect(existsSync(coldPaths(home).behind)).toBe(false);
    expect(oneShot('user: Alice Example')!.pages).toHaveLength(1);
  });
});
