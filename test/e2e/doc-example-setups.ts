import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pingServe } from '../../src/serve-client/autostart.js';
import { CLI, tempDir } from '../support/cli.js';
import { eventually } from '../support/eventually.js';

/**
 * The hidden preparations a doc example may ask for (`<!-- example: setup=… -->`). Each name says
 * what a reader is assumed to have before the block; the files they copy are shipped in
 * docs/examples so a reader can look at them too.
 */

export const ROOT = resolve(import.meta.dirname, '../..');

export interface World {
  root: string;
  user: string;
  home: string;
  work: string;
  bin: string;
  env: NodeJS.ProcessEnv;
  background: ChildProcess[];
}

/** A setup returns a reason when the test data it needs is not beside the repository (../shared): the example is then skipped. */
export type Setup = (w: World) => string | undefined | Promise<string | undefined>;

/**
 * Starts a long-running command (`brainstream serve …`) in the world and waits until serve
 * answers for the world's home; it is stopped when the document's examples end.
 */
export async function startServe(w: World, command: string, where: string): Promise<void> {
  const child = spawn('bash', ['-c', `exec ${command}`], { cwd: w.work, env: w.env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  w.background.push(child);
  const home = w.home;
  await eventually(async () => {
    if (child.exitCode !== null) throw new Error(`${where}: ${command} exited ${child.exitCode}: ${stderr}`);
    return (await pingServe(home, 2_000)) !== null ? true : undefined;
  });
}

/** The brainstream homes under `root` whose serve has a socket: every folder holding `run/serve.sock`. */
export function homesIn(root: string, depth = 4): string[] {
  if (depth === 0) return [];
  const homes: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === 'node_modules') continue;
    const dir = join(root, entry.name);
    if (existsSync(join(dir, 'run', 'serve.sock'))) homes.push(dir);
    else homes.push(...homesIn(dir, depth - 1));
  }
  return homes;
}

function cli(w: World, args: readonly string[], input?: string): void {
  const r = spawnSync(process.execPath, [CLI, ...args], { env: w.env, cwd: w.work, input: input ?? '', encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`setup: brainstream ${args.join(' ')} failed: ${r.stderr}`);
}

function run(cmd: string, args: readonly string[], cwd: string): void {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`setup: ${cmd} ${args.join(' ')} failed: ${r.stderr}`);
}

const SHARED = resolve(ROOT, '..', 'shared');
const BENCHMARKS = ['locomo', 'brainbench'].map((name) => join(SHARED, name));

/**
 * The replay walk-through's home (docs/tuning.md), built once per test run and copied into each
 * world that asks for it: the build streams a few thousand turns and takes seconds, a copy does not.
 */
const walkthroughs = new Map<string, string>();
function walkthroughHome(neverRead: string | null): string {
  const key = neverRead ?? 'all-read';
  const cached = walkthroughs.get(key);
  if (cached !== undefined) return cached;
  const dir = tempDir('bs-doc-walkthrough-');
  process.once('exit', () => dir.cleanup());
  const home = join(dir.path, 'home');
  for (const bench of BENCHMARKS) {
    const args = [join(ROOT, 'dist/scripts/build-replay-walkthrough.js'), ...(neverRead === null ? [] : ['--never-read', neverRead]), bench, home];
    const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`setup: build-replay-walkthrough ${bench} failed: ${r.stderr}`);
  }
  walkthroughs.set(key, home);
  return home;
}

const benchmarksMissing = (): string | undefined => {
  const missing = BENCHMARKS.filter((b) => !existsSync(join(b, 'fixtures')));
  return missing.length > 0 ? `benchmark folders missing: ${missing.join(', ')}` : undefined;
};

function copyWalkthrough(w: World, neverRead: string | null, name: string): string | undefined {
  const missing = benchmarksMissing();
  if (missing !== undefined) return missing;
  const target = join(w.user, name);
  if (!existsSync(target)) cpSync(walkthroughHome(neverRead), target, { recursive: true });
  return undefined;
}

export const SETUPS: Record<string, Setup> = {
  // The brain a reader keeps in ~/notes/brain: the example brain shipped in docs/examples.
  'sample-brain': (w) => {
    cpSync(join(ROOT, 'docs/examples/brain'), join(w.user, 'notes/brain'), { recursive: true });
    return undefined;
  },
  // A transcript feed that ends: the example transcript, one turn per line.
  'transcript-feed': (w) => {
    const feed = join(w.bin, 'some-transcript-feed');
    writeFileSync(feed, `#!/bin/sh\nexec cat ${JSON.stringify(join(ROOT, 'docs/examples/transcript.txt'))}\n`);
    chmodSync(feed, 0o755);
    return undefined;
  },
  // Two pages whose names nest, as the guide describes them.
  'cyberpunk-pages': (w) => {
    const brain = join(w.root, 'games-brain');
    mkdirSync(join(brain, 'games'), { recursive: true });
    writeFileSync(join(brain, 'games/cyberpunk.md'), '---\ntitle: Cyberpunk\nsummary: A genre.\n---\n\nA genre of science fiction.\n');
    writeFileSync(join(brain, 'games/cyberpunk-2077.md'), '---\ntitle: Cyberpunk 2077\nsummary: A game.\n---\n\nA game set in Night City.\n');
    cli(w, ['import', brain]);
    return undefined;
  },
  // The files the core memory walk-through feeds to its commands, in the working folder.
  'core-files': (w) => {
    const dir = join(ROOT, 'docs/examples/core');
    for (const f of readdirSync(dir)) cpSync(join(dir, f), join(w.work, f));
    return undefined;
  },
  // The working folder is a git repository whose AGENTS.md is committed.
  'git-project': (w) => {
    writeFileSync(join(w.work, 'AGENTS.md'), '# Agents\n\nRun `npm test` before every commit.\n');
    run('git', ['init', '-q'], w.work);
    run('git', ['add', 'AGENTS.md'], w.work);
    run('git', ['-c', 'user.name=Example', '-c', 'user.email=example@example.com', 'commit', '-q', '-m', 'Agents file'], w.work);
    return undefined;
  },
  // serve runs for the home from the start, as `brainstream serve` in a terminal of its own;
  // commands then answer through it.
  serve: async (w) => {
    await startServe(w, 'brainstream serve', 'setup serve');
    return undefined;
  },
  // A second fresh brain, in a home of its own (a serve of the first one keeps running until the
  // end): core initialised and on, and the four pages the guide names put in it.
  'core-suggest-brain': (w) => {
    w.home = join(w.root, 'second-brainstream-home');
    w.env.BRAINSTREAM_HOME = w.home;
    cli(w, ['core', 'init']);
    cli(w, ['config', 'set', 'memory.core.enabled', 'true']);
    const pages: [string, string][] = [['prefs/tools', 'tools.md'], ['projects/apollo', 'apollo.md'], ['projects/hermes', 'hermes.md'], ['people/alice-example', 'alice.md']];
    for (const [slug, file] of pages) cli(w, ['page', 'put', slug], readFileSync(join(ROOT, 'docs/examples/core', file), 'utf8'));
    return undefined;
  },
  // The home `build-replay-walkthrough` makes from the benchmark folders, as ~/walkthrough
  // (every block that reads it names it, so none runs on an empty home when the folders are missing).
  'replay-walkthrough': (w) => copyWalkthrough(w, null, 'walkthrough'),
  // The same home as the brain the commands use (BRAINSTREAM_HOME), for guides that quote its figures.
  'replay-walkthrough-as-home': (w) => {
    const missing = benchmarksMissing();
    if (missing !== undefined) return missing;
    rmSync(w.home, { recursive: true, force: true });
    cpSync(walkthroughHome(null), w.home, { recursive: true });
    return undefined;
  },
  // The same with a third of the volunteered pages never read, as ~/learned.
  'replay-walkthrough-never-read': (w) => copyWalkthrough(w, '0.33', 'learned'),
};
