// The context-engine surface against a real serve: the session block is
// fetched read-only with the `core_block` request, reused for at most 60 s per session and
// source, and read from serve's cache file (never by opening the brain) while serve is down.
import { join } from 'node:path';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrain } from '../../src/brain/brain.js';
import { createCoreContext } from '../../src/context-engine/core-context.js';
import { fetchCoreBlock } from '../../src/context-engine/fetch-core-block.js';
import { estimateTokens, type OpenClawContextEngine } from '../../src/context-engine/openclaw-engine.js';
import plugin from '../../src/context-engine/openclaw-plugin.js';
import { tempDir } from '../support/cli.js';
import { openCliSession, type CliSession } from '../support/cli-session.js';

const tmp = tempDir('bs-context-engine-');
const home = join(tmp.path, 'brain');
const PROFILE = '## Profile (core/profile)\n\nI prefer terse answers.';
const WORK = '## Work rules (work:rules)\n\nShip on Fridays only.';
const HABITS = '## Habits (prefs/habits)\n\nTests before code.';
const CORE = `# Core memory\n\n${PROFILE}`;

const setConfig = (config: Record<string, unknown>): void => writeFileSync(join(home, 'config.json'), JSON.stringify(config));
/** Serve of the home, in this process: the engine still reaches it only through its socket. */
let serve: CliSession | null = null;
const startServe = async (): Promise<CliSession> => (serve = await openCliSession(home));
const stopServe = async (): Promise<void> => {
  await serve?.close();
  serve = null;
};
/** A command forwarded to serve; throws when it fails. */
const cli = async (args: string[], input = ''): Promise<void> => {
  const r = await serve!.run(args, { input });
  if (r.code !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
};

async function eventCount(): Promise<number> {
  const brain = await openBrain(home);
  try {
    const [row] = await brain.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
    return Number(row!.n);
  } finally {
    await brain.close();
  }
}

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000): { now: () => number; advance(ms: number): void } {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

beforeAll(async () => {
  await startServe();
  await serve!.importPages(join(tmp.path, 'pages'), { 'core/profile': '---\ntitle: Profile\nalways_load: true\ncore_priority: 10\n---\nI prefer terse answers.\n' });
  await cli(['page', 'put', 'rules', '--source', 'work'], '---\ntitle: Work rules\nalways_load: true\n---\nShip on Fridays only.\n');
  await stopServe();
  setConfig({ 'memory.core.enabled': true });
});

afterAll(async () => {
  await stopServe();
  tmp.cleanup();
});

describe('the core context a context engine wraps, against a real serve', () => {
  it('fetches the session block read-only: many turns, no event appended', async () => {
    const before = await eventCount();
    await startServe();
    const clock = manualClock();
    const core = createCoreContext({ home, now: clock.now, env: {} });
    const work = createCoreContext({ home, sourceId: 'work', now: clock.now, env: {} });
    expect(await fetchCoreBlock(home, 'default', 600)).toEqual({ text: CORE, revision: expect.stringMatching(/^[0-9a-f]{16}$/), via: 'serve' });
    for (let turn = 0; turn < 5; turn++) {
      expect(await core.sessionBlock({ sessionKey: `s${turn}` })).toBe(CORE);
      expect(await work.sessionBlock({ sessionKey: `s${turn}` })).toBe(`${CORE}\n\n${WORK}`);
      clock.advance(61_000);
    }
    // A session may name its source per call; the default source's part always comes first.
    expect(await core.sessionBlock({ sessionKey: 'x', sourceId: 'work' })).toBe(`${CORE}\n\n${WORK}`);
    await stopServe();
    expect(await eventCount()).toBe(before);
  });

  it('reuses a block within 60 s for the same session and source, and fetches again after', async () => {
    await startServe();
    const clock = manualClock();
    const core = createCoreContext({ home, now: clock.now, env: {} });
    expect(await core.sessionBlock({ sessionKey: 'a' })).toBe(CORE);
    // A new core page, through serve: core changed now.
    await cli(['page', 'put', 'prefs/habits'], '---\ntitle: Habits\nalways_load: true\ncore_priority: 20\n---\nTests before code.\n');
    const updated = `${CORE}\n\n${HABITS}`;
    clock.advance(59_999);
    expect(await core.sessionBlock({ sessionKey: 'a' })).toBe(CORE);
    // Another session is not served from session a's entry.
    expect(await core.sessionBlock({ sessionKey: 'b' })).toBe(updated);
    clock.advance(1);
    expect(await core.sessionBlock({ sessionKey: 'a' })).toBe(updated);
    // A shorter ttl is honoured; a longer one is cut to 60 s.
    const long = createCoreContext({ home, now: clock.now, ttlMs: 10 * 60_000, env: {} });
    expect(await long.sessionBlock({ sessionKey: 'a' })).toBe(updated);
    await cli(['core', 'remove', 'prefs/habits']);
    clock.advance(60_000);
    expect(await long.sessionBlock({ sessionKey: 'a' })).toBe(CORE);
    await stopServe();
  });

  it('delivers nothing while core is off or BRAINSTREAM_CORE=0 is set', async () => {
    await startServe();
    const suppressed = createCoreContext({ home, env: { BRAINSTREAM_CORE: '0' } });
    expect(await suppressed.sessionBlock({ sessionKey: 'a' })).toBe('');
    setConfig({ 'memory.core.enabled': false });
    try {
      expect(await createCoreContext({ home, env: {} }).sessionBlock({ sessionKey: 'a' })).toBe('');
    } finally {
      setConfig({ 'memory.core.enabled': true });
    }
    expect(await createCoreContext({ home, env: {} }).sessionBlock({ sessionKey: 'a' })).toBe(CORE);
    await stopServe();
  });

  it('the OpenClaw engine adds the block to every run, from serve', async () => {
    await startServe();
    let engine: OpenClawContextEngine | undefined;
    plugin.register({ pluginConfig: { home, source: 'work' }, registerContextEngine: (_id, factory) => void (engine = factory({}) as OpenClawContextEngine) });
    const messages = [{ role: 'user', content: 'What ships today?' }];
    const run = await engine!.assemble({ sessionId: 'oc-1', sessionKey: 'agent:main:oc-1', messages });
    expect(run).toEqual({ messages, estimatedTokens: estimateTokens(messages, `${CORE}\n\n${WORK}`), systemPromptAddition: `${CORE}\n\n${WORK}` });
    await stopServe();
  });

  it('without serve: read from serve\'s cache file, never by opening the brain', async () => {
    const clock = manualClock();
    const core = createCoreContext({ home, now: clock.now, env: {} });
    // The owner's own command holds the brain; the engine must not need it.
    const brain = await openBrain(home);
    try {
      expect(await core.sessionBlock({ sessionKey: 'a' })).toBe(CORE);
      expect(await fetchCoreBlock(home, 'default', 600)).toMatchObject({ text: CORE, via: 'cache-file' });
      rmSync(join(home, 'run', 'core-cache.json'));
      expect(await core.sessionBlock({ sessionKey: 'a' })).toBe(CORE);
      clock.advance(60_000);
      // Neither serve nor its cache: nothing this turn (and nothing cached, so the next turn asks again).
      expect(await core.sessionBlock({ sessionKey: 'a' })).toBe('');
    } finally {
      await brain.close();
    }
  });
});

describe('the OpenClaw plugin package', () => {
  const root = join(import.meta.dirname, '..', '..');
  const json = (file: string): Record<string, any> => JSON.parse(readFileSync(join(root, file), 'utf8')) as Record<string, any>;

  it('openclaw.plugin.json, package.json and the built entry agree on the engine', async () => {
    const manifest = json('openclaw.plugin.json');
    const pkg = json('package.json');
    const entry = pkg.openclaw.extensions[0] as string;
    expect(pkg.exports['./openclaw'].default).toBe(entry);
    expect(pkg.files).toContain('openclaw.plugin.json');
    const built = (await import(pathToFileURL(join(root, entry)).href)) as { default: typeof plugin };
    expect(built.default).toMatchObject({ id: manifest.id, kind: manifest.kind });
    expect(manifest).toMatchObject({ id: 'brainstream', kind: 'context-engine' });
    expect(Object.keys(manifest.configSchema.properties).sort()).toEqual(['home', 'source']);
    const api = await import(pathToFileURL(join(root, pkg.exports['./context-engine'].default)).href);
    expect(Object.keys(api)).toEqual(expect.arrayContaining(['createCoreContext', 'createOpenClawCoreEngine', 'fetchCoreBlock']));
  });
});
