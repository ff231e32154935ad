import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';

const home = tempDir('bs-config-cli-');
afterAll(() => home.cleanup());
const bs = (...args: string[]) => runCli(['--home', home.path, ...args]);

describe('config get / set through the CLI (§11)', () => {
  it('prints defaults, stores validated values, refuses bad ones with exit 1 and a message naming what is allowed', () => {
    expect(bs('config', 'get', 'memory.core.enabled').stdout).toBe('false\n');
    expect(bs('config', 'get', 'memory.pressure.context_window').stdout).toBe('\n');
    expect(bs('config', 'set', 'memory.core.max_chars', '6000')).toEqual({ code: 0, stdout: 'memory.core.max_chars = 6000\n', stderr: '' });
    expect(bs('config', 'set', 'memory.core.max_chars', '499')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'brainstream: invalid_config_value: memory.core.max_chars must be a whole number from 500 to 6000, got "499"\n',
    });
    expect(bs('config', 'set', 'memory.core.max_chars', '6001').code).toBe(1);
    expect(bs('config', 'set', 'memory.core.max_chars', 'abc').stderr).toBe('brainstream: invalid_config_value: memory.core.max_chars must be a whole number from 500 to 6000, got "abc"\n');
    expect(bs('config', 'get', 'memory.core.max_chars').stdout).toBe('6000\n');
    expect(bs('config', 'set', 'memory.core.enabled', 'on').stdout).toBe('memory.core.enabled = true\n');
    expect(bs('config', 'set', 'memory.capture.exclude', 'secrets, passwords').stdout).toBe('memory.capture.exclude = secrets, passwords\n');
    expect(bs('config', 'get', 'memory.capture.exclude').stdout).toBe('secrets, passwords\n');
  });

  it('unknown keys are unknown_config_key; --force stores anyway and doctor reports the clamped value', () => {
    const r = bs('config', 'set', 'memory.core.maxchars', '500', '--json');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^brainstream: unknown_config_key: unknown configuration key "memory\.core\.maxchars"; known keys: memory\.core\.enabled, /);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: 'unknown_config_key', key: 'memory.core.maxchars' });
    expect(bs('config', 'set', 'memory.core.max_chars', '9000', '--force').stdout).toBe('memory.core.max_chars = 9000\n');
    const status = JSON.parse(bs('core', 'status', '--json').stdout);
    expect(status.max_chars).toBe(6000);
    const doctor = JSON.parse(bs('doctor', '--json').stdout).checks.find((c: { name: string }) => c.name === 'core_memory');
    expect(doctor).toMatchObject({ status: 'warn', details: { findings: [{ kind: 'out_of_range_setting', key: 'memory.core.max_chars', fix: 'brainstream config set memory.core.max_chars 6000' }] } });
  });
});
