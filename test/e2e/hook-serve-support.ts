import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CLI, runCli, type CliResult } from '../support/cli.js';

export const FIXTURES = resolve(import.meta.dirname, '../fixtures/claude-code');

/** A running `brainstream serve` child process on a home. */
export interface ServeChild {
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the real serve on `home` and resolves once it listens on its socket. */
export function startServe(home: string, env: NodeJS.ProcessEnv = {}): Promise<ServeChild> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, '--home', home, 'serve'], { env: { ...process.env, BRAINSTREAM_SOURCE: '', BRAINSTREAM_HOOK_DEADLINE_MS: '600000', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    const onData = (d: Buffer): void => {
      err += d.toString();
      if (err.includes('[serve] listening on')) {
        child.stderr!.off('data', onData);
        child.stderr!.resume();
        done({
          child,
          stop: () =>
            new Promise<void>((stopped) => {
              if (child.exitCode !== null) return stopped();
              child.once('exit', () => stopped());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stderr!.on('data', onData);
    child.once('exit', (code) => fail(new Error(`serve exited (${code}) before listening: ${err}`)));
  });
}

/** Writes markdown pages under a folder and imports them into `home`. */
export function importPages(home: string, folder: string, pages: Record<string, string>): void {
  for (const [rel, text] of Object.entries(pages)) {
    const file = join(folder, `${rel}.md`);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, text);
  }
  const r = runCli(['--home', home, 'import', folder]);
  if (r.code !== 0) throw new Error(`import failed: ${r.stderr}`);
}

/** Copies the fixture transcript into a fake `$HOME/.claude/projects` and returns its path. */
export function installTranscript(userHome: string, name = 'transcript.jsonl'): string {
  const dir = join(userHome, '.claude', 'projects', '-home-user-projects-acme');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, '6f1c2a4e-3b7d-4c1e-9a2f-8d5e0b7c9a13.jsonl');
  copyFileSync(join(FIXTURES, name), path);
  return path;
}

export const fixtureJson = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>;

/** Runs `brainstream hook <event>` with a JSON payload on stdin. */
export function runHook(home: string, event: string, payload: unknown, env: NodeJS.ProcessEnv, extra: string[] = []): CliResult {
  return runCli(['--home', home, 'hook', event, ...extra], { input: typeof payload === 'string' ? payload : JSON.stringify(payload), env });
}

/** The heartbeat lines of a home, parsed. */
export function heartbeats(home: string): Record<string, unknown>[] {
  try {
    return readFileSync(join(home, 'integrations', 'hooks', 'heartbeat.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  } catch {
    return [];
  }
}

/** `additionalContext` of a UserPromptSubmit hook's stdout. */
export function additionalContext(stdout: string): string {
  const parsed = JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  if (parsed.hookSpecificOutput.hookEventName !== 'UserPromptSubmit') throw new Error('not a UserPromptSubmit output');
  return parsed.hookSpecificOutput.additionalContext;
}
