import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runCliAsync, tempDir } from '../support/cli.js';
import { openCliSession } from '../support/cli-session.js';

// Two `page put` processes on one home with no serve running: each opens the embedded brain
// itself, so the brain lock decides who writes. The loser either waits and is then measured
// against the budget (core_budget_exceeded), or is turned away (brain_locked); never do both
// pages land, and nothing else may happen. Each round costs two process starts and brain opens,
// so a few rounds here; the in-process and through-serve races run 100.
const ROUNDS = 3;
const home = tempDir('bs-core-race-noserve-');
afterAll(() => home.cleanup());
const bs = (args: string[], input = '') => runCli(['--home', home.path, ...args], { input });
/** Runs a command that must succeed; a failure shows its stderr. */
const ok = (args: string[], input = ''): string => {
  const r = bs(args, input);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
};

/** A core page whose section plus separator is exactly `size` characters. */
const pageOf = (slug: string, size: number) => `---\ntitle: R\nalways_load: true\n---\n${'y'.repeat(size - 2 - `## R (${slug})\n\n`.length)}\n`;
const used = (): number => JSON.parse(ok(['core', 'status', '--json'])).used_chars as number;

describe('the budget race between two CLI processes without serve', () => {
  it(`two concurrent \`page put\` processes for the last 300 characters: exactly one writes, the other waits and is refused or gets brain_locked, ${ROUNDS} rounds in a row`, async () => {
    // The brain is prepared and checked in this process (serve in-process, closed again before the
    // race): only the racing commands pay for process starts.
    const setup = await openCliSession(home.path);
    const setupOk = async (args: string[], input = ''): Promise<string> => {
      const r = await setup.run(args, { input });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r.stdout;
    };
    const usedNow = async (): Promise<number> => JSON.parse(await setupOk(['core', 'status', '--json'])).used_chars as number;
    await setupOk(['config', 'set', 'memory.core.max_chars', '1000']);
    await setupOk(['page', 'put', 'base'], `---\ntitle: base\nalways_load: true\n---\nx\n`);
    const fill = 1000 - 300 - (await usedNow());
    await setupOk(['page', 'put', 'base'], `---\ntitle: base\nalways_load: true\n---\n${'x'.repeat(1 + fill)}\n`);
    expect(await usedNow()).toBe(700);
    await setup.close();
    for (let round = 0; round < ROUNDS; round++) {
      const slugs = [`race/a${String(round).padStart(4, '0')}`, `race/b${String(round).padStart(4, '0')}`];
      const results = await Promise.all(slugs.map((s) => runCliAsync(['--home', home.path, 'page', 'put', s], { input: pageOf(s, 300) })));
      expect(results.map((r) => r.code).sort(), `round ${round}: ${results.map((r) => r.stderr).join(' | ')}`).toEqual([0, 1]);
      const loser = results.find((r) => r.code === 1)!;
      expect(loser.stderr).toMatch(
        /^brainstream: (core_budget_exceeded: core would be 1300 chars, 300 over memory\.core\.max_chars=1000; |brain_locked: the brain is open in another process)/,
      );
      const winner = slugs[results.findIndex((r) => r.code === 0)]!;
      ok(['page', 'delete', winner]);
    }
    expect(used()).toBe(700);
  });
});
