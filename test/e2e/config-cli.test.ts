import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_KEYS } from '../../src/core-memory/config-keys.js';
import { tempDir } from '../support/cli.js';
import { openCliSession, type CliSession } from '../support/cli-session.js';

const home = tempDir('bs-config-cli-');
let cli: CliSession;
beforeAll(async () => {
  cli = await openCliSession(home.path);
});
afterAll(async () => {
  await cli.close();
  home.cleanup();
});
const bs = (...args: string[]) => cli.run(args);

describe('config get / set through the CLI', () => {
  it('prints defaults, stores validated values, refuses bad ones with exit 1 and a message naming what is allowed', async () => {
    expect((await bs('config', 'get', 'memory.core.enabled')).stdout).toBe('false\n');
    expect((await bs('config', 'get', 'memory.pressure.context_window')).stdout).toBe('\n');
    expect(await bs('config', 'set', 'memory.core.max_chars', '6000')).toEqual({ code: 0, stdout: 'memory.core.max_chars = 6000\n', stderr: '' });
    expect(await bs('config', 'set', 'memory.core.max_chars', '499')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'brainstream: invalid_config_value: memory.core.max_chars must be a whole number from 500 to 6000, got "499"\n',
    });
    expect((await bs('config', 'set', 'memory.core.max_chars', '6001')).code).toBe(1);
    expect((await bs('config', 'set', 'memory.core.max_chars', 'abc')).stderr).toBe('brainstream: invalid_config_value: memory.core.max_chars must be a whole number from 500 to 6000, got "abc"\n');
    expect((await bs('config', 'get', 'memory.core.max_chars')).stdout).toBe('6000\n');
    expect((await bs('config', 'set', 'memory.core.enabled', 'on')).stdout).toBe('memory.core.enabled = true\n');
    expect((await bs('config', 'set', 'memory.capture.exclude', 'secrets, passwords')).stdout).toBe('memory.capture.exclude = secrets, passwords\n');
    expect((await bs('config', 'get', 'memory.capture.exclude')).stdout).toBe('secrets, passwords\n');
  });

  it('unknown keys are unknown_config_key; --force stores anyway and doctor reports the clamped value', async () => {
    const r = await bs('config', 'set', 'memory.core.maxchars', '500', '--json');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^brainstream: unknown_config_key: unknown configuration key "memory\.core\.maxchars"; known keys: memory\.core\.enabled, /);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: 'unknown_config_key', key: 'memory.core.maxchars' });
    expect((await bs('config', 'set', 'memory.core.max_chars', '9000', '--force')).stdout).toBe('memory.core.max_chars = 9000\n');
    const status = JSON.parse((await bs('core', 'status', '--json')).stdout);
    expect(status.max_chars).toBe(6000);
    const doctor = JSON.parse((await bs('doctor', '--json')).stdout).checks.find((c: { name: string }) => c.name === 'core_memory');
    expect(doctor).toMatchObject({ status: 'warn', details: { findings: [{ kind: 'out_of_range_setting', key: 'memory.core.max_chars', fix: 'brainstream config set memory.core.max_chars 6000' }] } });
  });
});

describe('config list and the old key spellings', () => {
  it('the old flat spelling of a key still works on get and set, with a note naming the new one', async () => {
    expect(await bs('config', 'set', 'retrieval_reflex_gazetteer', 'false')).toEqual({
      code: 0,
      stdout: 'retrieval.reflex.gazetteer = false\n',
      stderr: 'brainstream: note: config key retrieval_reflex_gazetteer is now spelled retrieval.reflex.gazetteer; the old spelling still works\n',
    });
    expect(await bs('config', 'get', 'retrieval_reflex_gazetteer')).toMatchObject({ code: 0, stdout: 'false\n' });
    expect(await bs('config', 'get', 'retrieval.reflex.gazetteer')).toEqual({ code: 0, stdout: 'false\n', stderr: '' });
    expect(JSON.parse(readFileSync(join(home.path, 'config.json'), 'utf8'))).toMatchObject({ 'retrieval.reflex.gazetteer': false });
  });

  it('lists every key with the value in use, its default and where it comes from: default, config.json (old spelling too) or the environment', async () => {
    const config = JSON.parse(readFileSync(join(home.path, 'config.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({ ...config, retrieval_reflex_max_pointers: 2, 'memory.pressure.warn_ratio': 7 }));
    const r = await cli.run(['config', 'list', '--json'], { env: { BRAINSTREAM_RETRIEVAL_REFLEX_WINDOW_TURNS: '2' } });
    expect(r.code, r.stderr).toBe(0);
    const entries = JSON.parse(r.stdout) as { key: string }[];
    expect(entries.map((e) => e.key)).toEqual(CONFIG_KEYS.map((k) => k.key));
    const byKey = new Map(entries.map((e) => [e.key, e]));
    expect(byKey.get('memory.core.enabled')).toEqual({ key: 'memory.core.enabled', value: true, default: false, source: 'config' });
    expect(byKey.get('memory.pressure.context_window')).toEqual({ key: 'memory.pressure.context_window', value: null, default: null, source: 'default' });
    expect(byKey.get('retrieval.reflex.max_pointers')).toEqual({ key: 'retrieval.reflex.max_pointers', value: 2, default: 3, source: 'config', stored_as: 'retrieval_reflex_max_pointers' });
    expect(byKey.get('memory.pressure.warn_ratio')).toEqual({ key: 'memory.pressure.warn_ratio', value: 0.8, default: 0.8, source: 'config', stored: 7 });
    expect(byKey.get('retrieval.reflex.window_turns')).toEqual({
      key: 'retrieval.reflex.window_turns',
      value: 2,
      default: 4,
      source: 'env',
      env: 'BRAINSTREAM_RETRIEVAL_REFLEX_WINDOW_TURNS',
    });

    const text = await bs('config', 'list');
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^KEY +VALUE +DEFAULT +FROM$/);
    expect(lines).toHaveLength(CONFIG_KEYS.length + 1);
    expect(lines).toContainEqual(expect.stringMatching(/^memory\.core\.enabled +true +false +config\.json$/));
    expect(lines).toContainEqual(expect.stringMatching(/^memory\.pressure\.context_window +\(unset\) +\(unset\) +default$/));
    expect(lines).toContainEqual(expect.stringMatching(/^retrieval\.reflex\.max_pointers +2 +3 +config\.json \(as retrieval_reflex_max_pointers\)$/));
    expect(lines).toContainEqual(expect.stringMatching(/^memory\.pressure\.warn_ratio +0\.8 +0\.8 +config\.json \(7 is not allowed\)$/));
  });
});
