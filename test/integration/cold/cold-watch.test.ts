// A `watch` that begins on the cold path (serve still opening the brain) prints what the open
// brain would have printed, and the log ends up holding that session as if one process had run
// it: the cold turns handed over through the spool, the rest decided by serve, numbered on.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { from } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrain, type Brain } from '../../../src/brain/brain.js';
import { ownerCaller } from '../../../src/caller.js';
import { coldPaths } from '../../../src/cold/cold-files.js';
import { ColdWatch } from '../../../src/cold/cold-watch.js';
import { putPage } from '../../../src/ops/page-ops.js';
import { runWatch } from '../../../src/ops/watch-stream.js';
import { runProgram } from '../../../src/cli/program.js';
import { refreshColdFiles } from '../../../src/serve/core-cache-file.js';
import { ServeRuntime } from '../../../src/serve/serve-runtime.js';
import { topologySettings } from '../../../streams/topology-settings.js';
import { lastLoggedTurn } from '../../../streams/volunteer-processor.js';
import type { TurnDecision } from '../../../streams/decide-turns.js';
import { eventually } from '../../support/eventually.js';

const home = mkdtempSync(join(tmpdir(), 'bs-cold-watch-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const OWNER = ownerCaller();
const SETTINGS = { window_turns: 4 };

/** A transcript that names pages by title and alias, comes back to them, and says nothing between. */
const LINES = [
  'user: I met Alice Example at the offsite',
  'assistant: Noted, anything about Acme Corp?',
  'user: yes, Acme is hiring and Bob Sample runs sales there',
  'assistant: I will look at the notes.',
  'user: Alice again, she wants the Cyberpunk 2077 review',
  'assistant: ok',
  'user: and the Vault Plans, quietly',
  'assistant: understood',
  'user: Bob Sample and Acme Corp signed',
  'user: back to Cyberpunk 2077 then',
];

type Shown = { turn: number; slug: string; confidence: number; arm: string };
const shown = (decisions: readonly TurnDecision[]): Shown[] =>
  decisions.flatMap((d) => d.volunteered.map((p) => ({ turn: d.turn, slug: p.slug, confidence: p.confidence, arm: p.arm })));

async function withBrain<T>(fn: (brain: Brain) => Promise<T>): Promise<T> {
  const brain = await openBrain(home);
  try {
    return await fn(brain);
  } finally {
    await brain.close();
  }
}

/** The session as one process runs it with the brain open. */
const openRun = (sessionId: string, lines: readonly string[], lastTurn = 0): Promise<TurnDecision[]> =>
  withBrain(async (brain) => {
    const decisions: TurnDecision[] = [];
    await runWatch(brain, from(lines), { sessionId, sourceId: 'default', settings: SETTINGS, lastTurn, topology: () => topologySettings(home), onDecision: (d) => decisions.push(d) });
    return decisions;
  });

const coldRun = (sessionId: string, lines: readonly string[]): { watch: ColdWatch; decisions: TurnDecision[] } => {
  const watch = new ColdWatch(home, { sessionId, sourceId: 'default', settings: SETTINGS }, topologySettings(home));
  const decisions: TurnDecision[] = [];
  // Two batches, as stdin chunks arrive.
  for (const batch of [lines.slice(0, 3), lines.slice(3)]) decisions.push(...watch.decide(batch)!);
  return { watch, decisions };
};

const loggedTurns = (brain: Brain, sessionId: string) =>
  brain.db.query<{ turn: number; text: string }>(
    `SELECT (data->>'turn')::int AS turn, data->>'text' AS text FROM events WHERE type = 'turn.appended' AND data->>'session_id' = $1 ORDER BY seq`,
    [sessionId],
  );
const volunteeredRows = (brain: Brain, sessionId: string) =>
  brain.db.query<Shown>('SELECT turn, slug, confidence, match_arm AS arm FROM context_volunteer_events WHERE session_id = $1 ORDER BY turn, slug', [sessionId]);
const byTurnAndSlug = (rows: Shown[]): Shown[] => [...rows].sort((a, b) => a.turn - b.turn || (a.slug < b.slug ? -1 : 1));

beforeAll(async () => {
  await withBrain(async (brain) => {
    const pages: Record<string, string> = {
      'people/alice-example': '---\ntitle: Alice Example\ntype: person\naliases: [Alice]\n---\nAlice works at Acme.\n',
      'people/bob-sample': '---\ntitle: Bob Sample\ntype: person\n---\nBob runs sales.\n',
      'companies/acme': '---\ntitle: Acme Corp\naliases: [Acme]\n---\nA company.\n',
      'games/cyberpunk-2077': '---\ntitle: Cyberpunk 2077\n---\nA game.\n',
      'notes/vault': '---\ntitle: Vault Plans\nvisibility: private\n---\nsecret\n',
    };
    for (let i = 0; i < 200; i++) pages[`people/filler-${i}`] = `---\ntitle: Filler Person ${i}\n---\nnobody\n`;
    for (const [slug, md] of Object.entries(pages)) await putPage(brain, OWNER, slug, md);
    await refreshColdFiles(brain, home);
  });
});

describe('watch on the cold path', () => {
  it('decides as the open brain does; the next open logs the session once, with the rows it printed', async () => {
    const reference = await openRun('open-1', LINES);
    const { watch, decisions } = coldRun('cold-1', LINES);
    expect(shown(decisions).length).toBeGreaterThan(3);
    expect(shown(decisions)).toEqual(shown(reference));
    expect(watch.lastTurn).toBe(LINES.length);
    expect(readdirSync(coldPaths(home).spool).length).toBeGreaterThan(0);
    await withBrain(async (brain) => {
      expect(readdirSync(coldPaths(home).spool)).toEqual([]);
      expect(await loggedTurns(brain, 'cold-1')).toEqual(LINES.map((line, i) => ({ turn: i + 1, text: line.replace(/^\w+: /, '') })));
      expect(byTurnAndSlug(await volunteeredRows(brain, 'cold-1'))).toEqual(byTurnAndSlug(shown(decisions)));
    });
  });

  it('handed over mid-session, the rest goes on from the next number as if one process ran it', async () => {
    const reference = await openRun('open-2', LINES);
    const cold = coldRun('cold-2', LINES.slice(0, 6));
    // Serve's side: the brain opens (the spool goes in), the session continues after its last logged turn.
    const lastTurn = await withBrain((brain) => lastLoggedTurn(brain.db, 'cold-2'));
    expect(lastTurn).toBe(6);
    const rest = await openRun('cold-2', LINES.slice(6), lastTurn);
    expect(shown([...cold.decisions, ...rest])).toEqual(shown(reference));
    await withBrain(async (brain) => {
      expect((await loggedTurns(brain, 'cold-2')).map((t) => t.turn)).toEqual(LINES.map((_, i) => i + 1));
      expect(byTurnAndSlug(await volunteeredRows(brain, 'cold-2'))).toEqual(byTurnAndSlug(shown(reference)));
    });
  });

  it('a running serve takes what the cold path spooled after it opened the brain', async () => {
    const runtime = await ServeRuntime.start(home, { role: 'watch', pollMs: 50, runCommand: runProgram });
    try {
      const { decisions } = coldRun('cold-3', LINES);
      const rows = await eventually(async () => {
        const r = await volunteeredRows(runtime.hosted.brain, 'cold-3');
        return r.length === shown(decisions).length ? r : undefined;
      });
      expect(byTurnAndSlug(rows)).toEqual(byTurnAndSlug(shown(decisions)));
      expect((await loggedTurns(runtime.hosted.brain, 'cold-3')).map((t) => t.turn)).toEqual(LINES.map((_, i) => i + 1));
    } finally {
      await runtime.stop();
    }
  });

  it('with the snapshot behind the log it takes nothing, so serve reads those lines', async () => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(coldPaths(home).behind, '');
    try {
      const watch = new ColdWatch(home, { sessionId: 'cold-4', sourceId: 'default', settings: SETTINGS }, topologySettings(home));
      expect(watch.decide(LINES.slice(0, 2))).toBeNull();
      expect(watch.lastTurn).toBe(0);
    } finally {
      rmSync(coldPaths(home).behind, { force: true });
    }
  });
});
