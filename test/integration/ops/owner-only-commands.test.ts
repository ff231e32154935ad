// Every owner-only command, and the operation behind it, run as a remote caller in this process:
// each is refused with owner_only — with the words it has always used — and nothing changes: no
// event is appended, no page, config, instruction file or plot is written. The owner's run of one
// of them afterwards shows that the same snapshot does see a change.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../support/cli.js';
import { openCliSession, type CliSession } from '../../support/cli-session.js';
import { runInProcess } from './permission-matrix-surfaces.js';

const home = tempDir('bs-owner-only-home-');
const work = tempDir('bs-owner-only-work-');
const folder = join(work.path, 'pages');
const instructions = join(work.path, 'instructions.md');
const plot = join(work.path, 'plot.svg');
let cli: CliSession;

const HOST = 'ask the user to run it on the brain host';
/** A broker and a database nobody listens on: a refused command never gets as far as either. */
const NOWHERE = ['--kafka', '127.0.0.1:9', '--database', 'postgres://127.0.0.1:9/none'];

interface Case {
  args: string[];
  message: string;
  /** Whether the command takes --json (then the refusal is also an envelope on stdout). */
  json: boolean;
}

const COMMANDS: readonly Case[] = [
  { args: ['purge'], message: 'purge is an owner-only command', json: true },
  { args: ['purge', '--dry-run'], message: 'purge is an owner-only command', json: true },
  { args: ['purge', ...NOWHERE], message: 'purge is an owner-only command', json: true },
  { args: ['rebuild'], message: 'rebuild is an owner-only command', json: true },
  { args: ['rebuild', '--check', 'pages'], message: 'rebuild is an owner-only command', json: true },
  { args: ['import', folder], message: 'import is an owner-only command', json: true },
  { args: ['replay', '--plot', plot], message: 'replay is an owner-only command', json: true },
  { args: ['replay', '--kafka', '127.0.0.1:9'], message: 'replay is an owner-only command', json: true },
  { args: ['config', 'set', 'memory.core.enabled', 'false'], message: `config set is an owner-only command; ${HOST}`, json: true },
  { args: ['compile-context', '--target', 'hermes', '--include-core', '--out', instructions], message: 'compile-context is an owner-only command; run it on the brain host', json: true },
  { args: ['core', 'init'], message: `core init is an owner-only command; ${HOST}`, json: true },
  { args: ['core', 'suggest', '--apply'], message: `core suggest --apply is an owner-only command; ${HOST}`, json: true },
  { args: ['core', 'ack', 'notes/plan', '--revision', 'r1'], message: `core_ack is an owner-only operation; ${HOST}`, json: true },
  { args: ['service', 'install'], message: `service install is an owner-only command; ${HOST}`, json: true },
  { args: ['service', 'uninstall'], message: `service uninstall is an owner-only command; ${HOST}`, json: true },
  { args: ['serve'], message: 'serve is an owner-only command', json: false },
];

/** The owner operations behind those commands, through `call`, with params the owner could run. */
const OPERATIONS: readonly [string, Record<string, unknown>, string][] = [
  ['purge', {}, 'purge is an owner-only command'],
  ['purge', { deployment: { brokers: ['127.0.0.1:9'], topic_prefix: 'x.', database: 'postgres://127.0.0.1:9/none', schema: 'brainstream' } }, 'purge is an owner-only command'],
  ['rebuild', {}, 'rebuild is an owner-only command'],
  ['import', { path: folder }, 'import is an owner-only command'],
  ['replay', { gates: [0.7] }, 'replay is an owner-only command'],
  ['config_set', { key: 'memory.core.enabled', value: 'false' }, `config set is an owner-only command; ${HOST}`],
  ['compile_context', { target: 'hermes', mode: 'include', out: instructions }, 'compile-context is an owner-only command; run it on the brain host'],
  ['core_init', {}, `core init is an owner-only command; ${HOST}`],
  ['core_suggest_apply', {}, `core suggest --apply is an owner-only command; ${HOST}`],
  ['core_ack', { slug: 'notes/plan', revision: 'r1' }, `core_ack is an owner-only operation; ${HOST}`],
];

/** What a refused command must leave as it was: the log, the pages, the home's files and the work folder's. */
async function snapshot(): Promise<unknown> {
  const [log] = await cli.query<{ n: number; last: string | null }>('SELECT count(*)::int AS n, max(seq)::text AS last FROM events');
  const pages = await cli.query<{ source_id: string; slug: string; version: number }>('SELECT source_id, slug, version FROM pages ORDER BY source_id, slug');
  const file = (path: string): string | null => (existsSync(path) ? readFileSync(path, 'utf8') : null);
  return {
    log,
    pages,
    config: file(join(home.path, 'config.json')),
    compiled: file(join(home.path, 'compiled.json')),
    instructions: file(instructions),
    plot: file(plot),
  };
}

/** Runs `args` in this process with a home and PATH of its own, so a service manager is never reached. */
async function asRemote(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const saved = { HOME: process.env.HOME, PATH: process.env.PATH };
  process.env.HOME = work.path;
  process.env.PATH = join(work.path, 'no-bin');
  try {
    return await runInProcess(home.path, ['--as', 'remote', ...args]);
  } finally {
    process.env.HOME = saved.HOME;
    process.env.PATH = saved.PATH;
  }
}

beforeAll(async () => {
  cli = await openCliSession(home.path);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'plan.md'), '---\ntitle: Plan\n---\nThe plan.\n');
  await cli.importPages(join(work.path, 'seed'), { 'notes/plan': '---\ntitle: Plan\nalways_load: true\n---\nThe plan.\n' });
  expect((await cli.run(['config', 'set', 'memory.core.enabled', 'true'])).code).toBe(0);
});

afterAll(async () => {
  await cli.close();
  home.cleanup();
  work.cleanup();
});

describe('owner-only commands run as a remote caller', () => {
  it.each(COMMANDS.map((c) => ({ ...c, line: c.args.join(' ') })))('$line: refused with owner_only, nothing changed', async ({ args, message, json }) => {
    const before = await snapshot();
    expect(await asRemote(args)).toEqual({ code: 1, stdout: '', stderr: `brainstream: owner_only: ${message}\n` });
    if (json) {
      const r = await asRemote([...args, '--json']);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout)).toEqual({ error: 'owner_only', message });
    }
    expect(await snapshot()).toEqual(before);
  });

  it.each(OPERATIONS)('call %s: refused with owner_only before its params are looked at, nothing changed', async (name, params, message) => {
    const before = await snapshot();
    for (const p of [params, { no_such_param: true }]) {
      const r = await asRemote(['call', name, '--params', JSON.stringify(p)]);
      expect(r).toEqual({ code: 1, stdout: `${JSON.stringify({ error: 'owner_only', message })}\n`, stderr: `brainstream: owner_only: ${message}\n` });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('the owner’s run of the same command does change what the snapshot reads', async () => {
    const before = await snapshot();
    expect((await cli.run(['core', 'init'])).code).toBe(0);
    expect(await snapshot()).not.toEqual(before);
  });
});
