import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('config get / set through the CLI (§11)', () => {
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
