import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliAsync, tempDir } from '../support/cli.js';
import { startServe, type ServeProcess } from './serve-harness.js';

const ROUNDS = 100;
const home = tempDir('bs-core-race-');
let serve: ServeProcess;
const bs = (args: string[], input = '') => runCli(['--home', home.path, ...args], { input });

beforeAll(async () => {
  bs(['config', 'set', 'memory.core.max_chars', '1000']);
  serve = await startServe(home.path);
});
afterAll(async () => {
  await serve?.stop();
  home.cleanup();
});

const used = (): number => JSON.parse(bs(['core', 'status', '--json']).stdout).used_chars as number;
/** A core page whose section plus separator is exactly `size` characters. */
const pageOf = (slug: string, size: number) => `---\ntitle: R\nalways_load: true\n---\n${'y'.repeat(size - 2 - `## R (${slug})\n\n`.length)}\n`;

describe('§4 the budget race through the CLI, commands forwarded to one serve', { timeout: 600_000 }, () => {
  it(`two concurrent \`page put\` processes racing to the last 300 characters: exactly one wins, ${ROUNDS} rounds`, async () => {
    expect(bs(['page', 'put', 'base'], `---\ntitle: base\nalways_load: true\n---\nx\n`).code).toBe(0);
    const fill = 1000 - 300 - used();
    expect(bs(['page', 'put', 'base'], `---\ntitle: base\nalways_load: true\n---\n${'x'.repeat(1 + fill)}\n`).code).toBe(0);
    expect(used()).toBe(700);
    for (let round = 0; round < ROUNDS; round++) {
      const slugs = [`race/a${String(round).padStart(4, '0')}`, `race/b${String(round).padStart(4, '0')}`];
      const results = await Promise.all(slugs.map((s) => runCliAsync(['--home', home.path, 'page', 'put', s], { input: pageOf(s, 300) })));
      expect(results.map((r) => r.code).sort()).toEqual([0, 1]);
      const loser = results.find((r) => r.code === 1)!;
      expect(loser.stderr).toMatch(/^brainstream: core_budget_exceeded: core would be 1300 chars, 300 over memory\.core\.max_chars=1000; /);
      expect(used()).toBe(1000);
      const winner = slugs[results.findIndex((r) => r.code === 0)];
      expect(bs(['page', 'delete', winner]).code).toBe(0);
    }
  });
});
