import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync, tempDir, type CliResult } from '../support/cli.js';
import { openCliSession, type CliSession } from '../support/cli-session.js';

// Commands forwarded to serve race inside serve, whoever sends them: most rounds send both
// commands over the socket from this process (as the binary does), a few from two real
// `brainstream` processes, so the forwarding client itself is in the race too.
const ROUNDS = 100;
const PROCESS_ROUNDS = 5;
const home = tempDir('bs-core-race-');
let cli: CliSession;
const bs = (args: string[], input = ''): Promise<CliResult> => cli.run(args, { input });

beforeAll(async () => {
  cli = await openCliSession(home.path);
  expect((await bs(['config', 'set', 'memory.core.max_chars', '1000'])).code).toBe(0);
});
afterAll(async () => {
  await cli?.close();
  home.cleanup();
});

const used = async (): Promise<number> => JSON.parse((await bs(['core', 'status', '--json'])).stdout).used_chars as number;
const put = (slug: string, text: string, viaProcess: boolean): Promise<CliResult> =>
  viaProcess ? runCliAsync(['--home', home.path, 'page', 'put', slug], { input: text }) : bs(['page', 'put', slug], text);
/** A core page whose section plus separator is exactly `size` characters. */
const pageOf = (slug: string, size: number) => `---\ntitle: R\nalways_load: true\n---\n${'y'.repeat(size - 2 - `## R (${slug})\n\n`.length)}\n`;

describe('the budget race through the CLI, commands forwarded to one serve', () => {
  it(`two concurrent \`page put\` commands racing to the last 300 characters: exactly one wins, ${ROUNDS} rounds (${PROCESS_ROUNDS} from two processes)`, async () => {
    expect((await bs(['page', 'put', 'base'], `---\ntitle: base\nalways_load: true\n---\nx\n`)).code).toBe(0);
    const fill = 1000 - 300 - (await used());
    expect((await bs(['page', 'put', 'base'], `---\ntitle: base\nalways_load: true\n---\n${'x'.repeat(1 + fill)}\n`)).code).toBe(0);
    expect(await used()).toBe(700);
    for (let round = 0; round < ROUNDS; round++) {
      const slugs = [`race/a${String(round).padStart(4, '0')}`, `race/b${String(round).padStart(4, '0')}`];
      const results = await Promise.all(slugs.map((s) => put(s, pageOf(s, 300), round < PROCESS_ROUNDS)));
      expect(results.map((r) => r.code).sort()).toEqual([0, 1]);
      const loser = results.find((r) => r.code === 1)!;
      expect(loser.stderr).toMatch(/^brainstream: core_budget_exceeded: core would be 1300 chars, 300 over memory\.core\.max_chars=1000; /);
      expect(await used()).toBe(1000);
      const winner = slugs[results.findIndex((r) => r.code === 0)];
      expect((await bs(['page', 'delete', winner])).code).toBe(0);
    }
  });
});
