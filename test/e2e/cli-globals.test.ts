// The global rules of the CLI contract: where the data folder is, the
// global flags before the command, --help/--version, and how bad values are reported.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliAsync, tempDir } from '../support/cli.js';
import { openCliSession, type CliSession } from '../support/cli-session.js';

const dirs: { cleanup(): void }[] = [];
const fresh = (): string => {
  const d = tempDir('bs-globals-');
  dirs.push(d);
  return d.path;
};
// Commands given --home run through the serve of one shared home, as the binary forwards them;
// where the home comes from without --home, and what must leave a home untouched, run the binary.
const shared = fresh();
let cli: CliSession;
beforeAll(async () => {
  cli = await openCliSession(shared);
});
afterAll(async () => {
  await cli.close();
  dirs.forEach((d) => d.cleanup());
});

const version = (JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }).version;
const PAGE = '---\ntitle: Note X\n---\nhello\n';

// The two cases touch different homes: their processes run alongside each other.
describe.concurrent('data folder: --home, else BRAINSTREAM_HOME, else ~/.brainstream', () => {
  it('uses BRAINSTREAM_HOME when --home is absent, and --home over it', async ({ expect }) => {
    const envHome = join(fresh(), 'from-env');
    const put = await runCliAsync(['page', 'put', 'notes/x'], { input: PAGE, env: { BRAINSTREAM_HOME: envHome } });
    expect(put.code).toBe(0);
    expect(existsSync(envHome)).toBe(true);
    // --home names the shared home (whose default source is empty), not the one holding notes/x.
    const listed = await runCliAsync(['--home', shared, 'page', 'list'], { env: { BRAINSTREAM_HOME: envHome } });
    expect(listed).toMatchObject({ code: 0, stdout: '' });
    expect((await runCliAsync(['page', 'list'], { env: { BRAINSTREAM_HOME: envHome } })).stdout).toBe('default:notes/x\tNote X\n');
  });

  it('falls back to ~/.brainstream, created on use', async ({ expect }) => {
    const home = fresh();
    const r = await runCliAsync(['page', 'put', 'notes/x'], { input: PAGE, env: { HOME: home, BRAINSTREAM_HOME: '' } });
    expect(r.code).toBe(0);
    expect(existsSync(join(home, '.brainstream'))).toBe(true);
  });
});

describe('global flags before the command', () => {
  it('take --source globally, as the contract writes `--as remote --source S <command>`', async () => {
    const put = await cli.run(['--as', 'remote', '--source', 'work', 'page', 'put', 'notes/x'], { input: PAGE });
    expect(put).toMatchObject({ code: 0, stdout: 'put work:notes/x (created)\n' });
    expect((await cli.run(['--source', 'work', 'page', 'list'])).stdout).toBe('work:notes/x\tNote X\n');
    // The command's own --source is the same option.
    expect((await cli.run(['page', 'list', '--source', 'work'])).stdout).toBe('work:notes/x\tNote X\n');
    expect((await cli.run(['--source', 'default', 'page', 'list'])).stdout).toBe('');
  });

  it('refuse a bad --source or --as with a usage error naming the flag', () => {
    const home = fresh();
    const badSource = runCli(['--home', home, '--source', 'Not Valid', 'page', 'list']);
    expect(badSource.code).toBe(2);
    expect(badSource.stderr).toMatch(/^brainstream: --source expects a source id .*"Not Valid"\n$/);
    const badAs = runCli(['--home', home, '--as', 'admin', 'page', 'list']);
    expect(badAs).toMatchObject({ code: 2, stderr: 'brainstream: --as expects owner or remote, got "admin"\n' });
    expect(existsSync(join(home, 'pglite'))).toBe(false);
  });
});

describe('--help and --version', () => {
  it('--version prints the package version and touches nothing', () => {
    const home = join(fresh(), 'untouched');
    expect(runCli(['--home', home, '--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(existsSync(home)).toBe(false);
  });

  it('--help lists the commands and the global flags; a command’s --help shows its own flags', () => {
    const home = join(fresh(), 'untouched');
    const top = runCli(['--home', home, '--help']);
    expect(top.code).toBe(0);
    for (const word of ['import', 'page', 'volunteer-context', 'watch', 'core', 'serve', '--home', '--as', '--source']) expect(top.stdout).toContain(word);
    const watch = runCli(['--home', home, 'watch', '--help']);
    expect(watch.code).toBe(0);
    for (const flag of ['--json', '--window-turns', '--max-pages', '--min-confidence', '--session-id']) expect(watch.stdout).toContain(flag);
    expect(existsSync(home)).toBe(false);
  });
});

describe('errors', () => {
  it('an unknown flag is a usage error naming it (exit 2, one stderr line)', async () => {
    const r = await cli.run(['page', 'list', '--colour']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe("brainstream: unknown option '--colour'\n");
  });

  it('a runtime error is exactly one stderr line, with the JSON envelope on stdout under --json', async () => {
    const r = await cli.run(['page', 'get', 'people/nobody', '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toMatch(/^brainstream: page_not_found: /);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: 'page_not_found' });
  });
});
