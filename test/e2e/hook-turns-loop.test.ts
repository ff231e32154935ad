import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrain } from '../../src/brain/brain.js';
import { runProgram } from '../../src/cli/program.js';
import { deterministicId, type Envelope } from '../../src/domain/events.js';
import type { HookEvent, Harness } from '../../src/hooks/hook-argv.js';
import { runHook } from '../../src/hooks/hook-main.js';
import { importFolder } from '../../src/ops/import-folder.js';
import { EmbeddedReplaySource } from '../../src/replay/embedded-turn-source.js';
import { runReplay } from '../../src/replay/replay.js';
import { ServeRuntime } from '../../src/serve/serve-runtime.js';
import { queryUsageStats } from '../../src/stats/usage-stats-query.js';
import { CLI, tempDir } from '../support/cli.js';
import { eventually } from './serve-harness.js';
import { fixtureJson } from './hook-serve-support.js';

/**
 * The harness loop end to end, in one process with one serve: hook payloads become turns of
 * their session in the log, the hook's answer is the processor's decision, replay reproduces
 * it, every pushed page opens through a real MCP client, and tool output pushes too.
 */
const tmp = tempDir('bs-hook-loop-');
const home = join(tmp.path, 'brain');
const userHome = join(tmp.path, 'user');
let runtime: ServeRuntime;
const savedEnv = { HOME: process.env.HOME, AUTOSTART: process.env.BRAINSTREAM_AUTOSTART, SOURCE: process.env.BRAINSTREAM_SOURCE };

const PAGES: Record<string, string> = {
  'people/alice-example': '---\ntitle: Alice Example\ntype: person\n---\nAlice is an early founder.\n',
  'people/bob-sample': '---\ntitle: Bob Sample\ntype: person\n---\nBob runs the widget deal.\n',
  'people/carol-xu': '---\ntitle: Carol Xu\ntype: person\n---\nCarol keeps the cap table.\n',
  'people/dan-okafor': '---\ntitle: Dan Okafor\ntype: person\n---\nDan leads the widget deal.\n',
  'people/erin-walsh': '---\ntitle: Erin Walsh\ntype: person\n---\nErin runs billing.\n',
  'people/dana-hidden': '---\ntitle: Dana Hidden\ntype: person\nvisibility: private\n---\nDana is a private contact.\n',
};

beforeAll(async () => {
  process.env.HOME = userHome;
  process.env.BRAINSTREAM_AUTOSTART = '0';
  delete process.env.BRAINSTREAM_SOURCE;
  const folder = join(tmp.path, 'pages');
  for (const [slug, text] of Object.entries(PAGES)) {
    mkdirSync(join(folder, slug, '..'), { recursive: true });
    writeFileSync(join(folder, `${slug}.md`), text);
  }
  const brain = await openBrain(home);
  try {
    await importFolder(brain, folder, 'default');
  } finally {
    await brain.close();
  }
  // Deadlines are not what these tests check: generous ones keep them independent of the machine's load.
  runtime = await ServeRuntime.start(home, { role: 'serve', pollMs: 50, turnBudgetMs: 30_000, runCommand: runProgram });
  // The first run of each hook loads its modules into this process (a hook process pays that
  // at every start, outside its deadline); the tests below then measure the hook, not the loader.
  await hook('user-prompt', prompt('warm-up', 'hello'));
  await hook('post-tool', { ...fixtureJson('post-tool-use-bash.json'), session_id: 'warm-up', tool_response: { stdout: 'nothing to see here' } });
});

afterAll(async () => {
  await runtime?.stop();
  for (const [key, value] of [['HOME', savedEnv.HOME], ['BRAINSTREAM_AUTOSTART', savedEnv.AUTOSTART], ['BRAINSTREAM_SOURCE', savedEnv.SOURCE]] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  tmp.cleanup();
});

/** One hook run in this process, as the harness would start it: the payload on stdin, stdout captured. */
async function hook(event: HookEvent, payload: unknown, harness: Harness = 'claude-code'): Promise<string> {
  let out = '';
  const code = await runHook(
    { home, event, rawEvent: event, harness },
    { stdin: Readable.from([Buffer.from(JSON.stringify(payload))]), write: (text) => void (out += text) },
    { deadlineMs: 60_000 },
  );
  expect(code).toBe(0);
  return out;
}

const contextOf = (stdout: string, eventName: string): string => {
  if (stdout === '') return '';
  const parsed = JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  expect(parsed.hookSpecificOutput.hookEventName).toBe(eventName);
  return parsed.hookSpecificOutput.additionalContext;
};
const slugsIn = (context: string): string[] => [...context.matchAll(/→ `([^`]+)`/g)].map((m) => m[1]!);

/** A prompt whose transcript does not exist yet: the first prompt of a new session. */
const prompt = (session: string, text: string): Record<string, unknown> => ({
  ...fixtureJson('user-prompt-submit.json'),
  session_id: session,
  transcript_path: join(userHome, '.claude', 'projects', '-home-user-projects-acme', `${session}.jsonl`),
  prompt: text,
});
const promptOut = async (session: string, text: string, harness: Harness = 'claude-code'): Promise<string[]> =>
  slugsIn(contextOf(await hook('user-prompt', prompt(session, text), harness), 'UserPromptSubmit'));

const pushed = new Set<string>();

async function volunteeredEvents(): Promise<Envelope<'page.volunteered'>[]> {
  const read = await runtime.hosted.brain.log.read(1, { topics: ['volunteered'], limit: 100_000 });
  return read.events.map((e) => e.event as Envelope<'page.volunteered'>);
}

describe('harness prompts are turns of their session', () => {
  it('the first prompt of a new session is decided on the prompt alone; a page comes once per session; never a private page', async () => {
    const first = await promptOut('cc-1', 'Did Bob Sample reply? Dana Hidden asked too.');
    expect(first).toEqual(['people/bob-sample']);
    const second = await promptOut('cc-1', 'Bob Sample again, and what about Alice Example?');
    expect(second).toEqual(['people/alice-example']);
    const codex = await promptOut('codex-1', 'Ask Dan Okafor and Carol Xu about it.', 'codex');
    expect(codex.sort()).toEqual(['people/carol-xu', 'people/dan-okafor']);
    for (const slug of [...first, ...second, ...codex]) pushed.add(slug);
  });

  it('each prompt is a turn event on the harness channel and session; replay at the live gate reproduces the deliveries exactly', async () => {
    const turns = (await runtime.hosted.brain.log.read(1, { topics: ['turns'], limit: 10_000 })).events.map((e) => e.event as Envelope<'turn.appended'>);
    expect(turns.filter((t) => t.data.session_id === 'cc-1').map((t) => [t.data.turn, t.data.role, t.data.channel])).toEqual([
      [1, 'user', 'claude-code'],
      [2, 'user', 'claude-code'],
    ]);
    expect(turns.find((t) => t.data.session_id === 'codex-1')?.data.channel).toBe('codex');
    const live = (await volunteeredEvents()).filter((e) => e.data.channel !== 'watch');
    expect(live.map((e) => e.data.slug).sort()).toEqual([...pushed].sort());
    const run = await runReplay(await EmbeddedReplaySource.open(runtime.hosted.brain.db), {
      gates: [0.7], windowTurns: 4, lexicalArms: true, gazetteer: true, remote: false, since: null, arms: null, workers: 0, collect: [0],
    });
    const replayed = run.volunteered.map((v) => ({
      id: deterministicId('vol', v.channel, v.session, v.turn, v.source_id, v.slug),
      data: { source_id: v.source_id, slug: v.slug, confidence: v.confidence, match_arm: v.arm, rationale: v.rationale, channel: v.channel, session_id: v.session, turn: v.turn, display: v.display, synopsis: v.synopsis },
    }));
    const byId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : 1);
    expect(replayed.sort(byId)).toEqual(live.map((e) => ({ id: e.id, data: e.data })).sort(byId));
  });

  it('stats by channel count the harness traffic', async () => {
    const rows = await eventually(async () => {
      const r = await queryUsageStats(runtime.hosted.brain.db, { by: ['channel'], since: null, until: null, sources: null });
      return r.rows.some((x) => x.channel === 'codex') ? r.rows : undefined;
    });
    expect(rows.find((r) => r.channel === 'claude-code')?.volunteered).toBe(2);
    expect(rows.find((r) => r.channel === 'codex')?.volunteered).toBe(2);
  });
});

describe('a pushed page is one the agent can open over MCP', () => {
  it('get_page of every pushed slug answers through a real MCP client; the private page named in a prompt was never pushed and is refused', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '--home', home, 'mcp'],
      env: { ...(process.env as Record<string, string>), BRAINSTREAM_SOURCE: '' },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'hook-loop', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(pushed.size).toBeGreaterThan(0);
      for (const slug of pushed) {
        const r = (await client.callTool({ name: 'get_page', arguments: { slug } })) as { isError?: boolean; content: { text: string }[] };
        expect(r.isError, slug).not.toBe(true);
        expect(JSON.parse(r.content[0]!.text)).toMatchObject({ slug });
      }
      const hidden = (await client.callTool({ name: 'get_page', arguments: { slug: 'people/dana-hidden' } })) as { isError?: boolean };
      expect(hidden.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('post-tool: what tools return pushes too', () => {
  const toolPayload = (name: string, session: string, over: Record<string, unknown> = {}): Record<string, unknown> => ({ ...fixtureJson(name), session_id: session, ...over });
  const toolOut = async (payload: unknown, harness: Harness = 'claude-code'): Promise<string[]> =>
    slugsIn(contextOf(await hook('post-tool', payload, harness), 'PostToolUse'));

  it('a fetched page names a person: pushed once in the session, as PostToolUse additionalContext', async () => {
    expect(await toolOut(toolPayload('post-tool-use-webfetch.json', 'tool-1'))).toEqual(['people/dan-okafor']);
    expect(await toolOut(toolPayload('post-tool-use-webfetch.json', 'tool-1'))).toEqual([]);
    expect(await toolOut(toolPayload('post-tool-use-bash.json', 'tool-1'))).toEqual(['people/erin-walsh']);
  });

  it('a page the prompt already surfaced is not pushed again by a tool', async () => {
    expect(await promptOut('tool-2', 'Is Dan Okafor around?')).toEqual(['people/dan-okafor']);
    expect(await toolOut(toolPayload('post-tool-use-webfetch.json', 'tool-2'))).toEqual([]);
  });

  it('Codex PostToolUse payloads push on the codex channel', async () => {
    const codex = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/codex/post-tool-use.json'), 'utf8')) as Record<string, unknown>;
    const slugs = await toolOut(codex, 'codex');
    expect(slugs.sort()).toEqual(['people/dan-okafor', 'people/erin-walsh']);
    const events = (await volunteeredEvents()).filter((e) => e.data.session_id === codex.session_id);
    expect(events.map((e) => e.data.channel)).toEqual(['codex', 'codex']);
  });

  it('names that only appear as code identifiers push nothing', async () => {
    expect(await toolOut(toolPayload('post-tool-use-read.json', 'tool-code'))).toEqual([]);
    const json = { tool_name: 'mcp__crm__lookup', tool_input: { id: 'erin_walsh' }, tool_response: [{ type: 'text', text: JSON.stringify({ erinWalsh: 1, alice_example: { bob_sample: true } }) }] };
    expect(await toolOut({ ...toolPayload('post-tool-use-bash.json', 'tool-code'), ...json })).toEqual([]);
  });

  it('a 2,000-line listing pushes at most the cap, and nothing for bare file names', async () => {
    const names = ['Alice Example', 'Bob Sample', 'Carol Xu', 'Dan Okafor', 'Erin Walsh'];
    const lines = Array.from({ length: 2000 }, (_, i) => `-rw-r--r--  1 user  staff  ${1000 + i} Nov 29 10:00 notes on ${names[i % names.length]} ${i}.md`);
    const listing = toolPayload('post-tool-use-bash.json', 'tool-list', { tool_input: { command: 'ls -l notes' }, tool_response: { stdout: lines.join('\n'), stderr: '', interrupted: false, isImage: false } });
    expect((await toolOut(listing)).length).toBeLessThanOrEqual(2);
    const files = Array.from({ length: 2000 }, (_, i) => `people/${['alice-example', 'bob-sample', 'carol-xu'][i % 3]}-${i}.md`);
    const bare = toolPayload('post-tool-use-bash.json', 'tool-files', { tool_input: { command: 'find people' }, tool_response: { stdout: files.join('\n'), stderr: '', interrupted: false, isImage: false } });
    expect(await toolOut(bare)).toEqual([]);
  });

  it('tool turns are turns of the session in the log: role tool, the tool name, the harness channel', async () => {
    const turns = (await runtime.hosted.brain.log.read(1, { topics: ['turns'], limit: 10_000 })).events.map((e) => e.event as Envelope<'turn.appended'>);
    const tool1 = turns.filter((t) => t.data.session_id === 'tool-1');
    expect(tool1.map((t) => [t.data.role, t.data.tool, t.data.channel])).toEqual([
      ['tool', 'WebFetch', 'claude-code'],
      ['tool', 'WebFetch', 'claude-code'],
      ['tool', 'Bash', 'claude-code'],
    ]);
    expect(tool1[0]!.data.text).toContain('Dan Okafor');
    expect(tool1[0]!.data.text).not.toContain('https://');
  });
});
