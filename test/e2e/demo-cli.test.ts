// The README's first command: `brainstream demo` imports the example brain into a temporary home,
// streams the example transcript through watch and shows per turn what was volunteered and why.
// It must work on a machine with no brain at all, and leave the user's own home untouched.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
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

    const r = runCli(['demo'], { env: { HOME: userHome, BRAINSTREAM_HOME: brainHome, TMPDIR: tmp } });
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

    // Nothing of the user's: no ~/.brainstream, no BRAINSTREAM_HOME; the temporary home is gone.
    expect(existsSync(join(userHome, '.brainstream'))).toBe(false);
    expect(existsSync(brainHome)).toBe(false);
    expect(readdirSync(tmp)).toEqual([]);
  });
});
