// The README's first command: `brainstream demo` imports the example brain into a temporary home,
// streams the example transcript through watch and shows per turn what was volunteered and why.
// It must work on a machine with no brain at all, and leave the user's own home untouched.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';

const sandbox = tempDir('bs-demo-');
afterAll(() => sandbox.cleanup());

describe('brainstream demo', () => {
  it('runs from scratch, shows every turn with the pages volunteered and their reasons, and cleans up', () => {
    const userHome = join(sandbox.path, 'user');
    const brainHome = join(sandbox.path, 'brainstream-home');
    const tmp = join(sandbox.path, 'tmp');
    mkdirSync(userHome);
    mkdirSync(tmp);

    // Embedded commands never load the distributed mode's Kafka and PostgreSQL clients.
    const refuseDistributed = `--import ${pathToFileURL(resolve(import.meta.dirname, '../support/refuse-distributed-clients.mjs')).href}`;
    const r = runCli(['demo'], { env: { HOME: userHome, BRAINSTREAM_HOME: brainHome, TMPDIR: tmp, NODE_OPTIONS: refuseDistributed } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const out = r.stdout;
    expect(out).toMatch(/^Imported 7 example pages from .*docs\/examples\/brain\n/);
    expect(out).toContain('Streaming 8 turns through watch (window 4, gate 0.7, at most 3 pages a turn):');
    // Each volunteered page with its confidence, arm and rationale, then its synopsis.
    expect(out).toContain(
      'turn 1 · user: Morning! I have the Widget Co board call at ten.\n' +
        '  → Widget Co → companies/widget-co (0.85, title) — exact title match "Widget Co"; mentioned in the newest turn\n' +
        '        Widget Co makes modular sensors for warehouses.\n',
    );
    expect(out).toContain('→ Alice Example → people/alice-example (0.85, title) — exact title match "Alice Example"; mentioned in the newest turn; assistant-introduced');
    expect(out).toContain('→ Ronan Galewright → people/ronan-galewright (0.77, title-surname) — surname match "Ronan Galewright"');
    expect(out).toContain('turn 5 · user: What did she want in it?\n    (nothing volunteered)\n');
    expect(out.match(/^turn \d+ · /gm)).toHaveLength(8);
    expect(out.match(/^ {2}→ /gm)!.length).toBeGreaterThanOrEqual(5);
    // The home is gone, so the last line offers --keep rather than a command on a deleted home.
    expect(out.trimEnd().split('\n').pop()).toBe('The demo home is deleted now; `brainstream demo --keep` keeps it, to try other commands on it with --home.');

    // Nothing of the user's: no ~/.brainstream, no BRAINSTREAM_HOME; the temporary home is gone.
    expect(existsSync(join(userHome, '.brainstream'))).toBe(false);
    expect(existsSync(brainHome)).toBe(false);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('the hook that stands in for a user without Kafka or PostgreSQL does refuse those clients', () => {
    const refuse = resolve(import.meta.dirname, '../support/refuse-distributed-clients.mjs');
    for (const client of ['kafkajs', 'postgres']) {
      const r = spawnSync(process.execPath, ['--import', pathToFileURL(refuse).href, '--input-type=module', '-e', `await import('${client}')`], { encoding: 'utf8' });
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain(`refused to load ${client}`);
    }
  });
});
