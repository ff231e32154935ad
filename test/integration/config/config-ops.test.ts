import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configGet, configSet } from '../../../src/config/config-ops.js';
import { memorySettings } from '../../../src/core-memory/memory-settings.js';
import { readConfigFile } from '../../../src/config/config-file.js';

let home = '';
afterEach(() => rmSync(home, { recursive: true, force: true }));
const fresh = (): string => (home = mkdtempSync(join(tmpdir(), 'bs-config-')));

describe('config get / set on <home>/config.json', () => {
  it('validates every key, stores JSON types, prints `<key> = <value>`; get prints stored, else default, else empty', () => {
    const h = fresh();
    expect(configGet(h, 'memory.core.max_chars')).toBe('4000');
    expect(configGet(h, 'memory.pressure.context_window')).toBe('');
    expect(configGet(h, 'memory.capture.exclude')).toBe('secrets, credentials, access tokens');
    expect(configSet(h, 'memory.core.enabled', 'YES')).toBe('memory.core.enabled = true');
    expect(configSet(h, 'memory.core.max_chars', '6000')).toBe('memory.core.max_chars = 6000');
    expect(configSet(h, 'memory.core.remote_edit', 'Refuse')).toBe('memory.core.remote_edit = refuse');
    expect(configSet(h, 'memory.pressure.warn_ratio', '0.9')).toBe('memory.pressure.warn_ratio = 0.9');
    expect(configSet(h, 'memory.capture.ttl', '30d')).toBe('memory.capture.ttl = 30d');
    expect(configSet(h, 'retrieval.reflex.max_pointers', '2')).toBe('retrieval.reflex.max_pointers = 2');
    expect(readConfigFile(h)).toEqual({
      'memory.core.enabled': true,
      'memory.core.max_chars': 6000,
      'memory.core.remote_edit': 'refuse',
      'memory.pressure.warn_ratio': 0.9,
      'memory.capture.ttl': '30d',
      'retrieval.reflex.max_pointers': 2,
    });
    expect(configGet(h, 'memory.core.remote_edit')).toBe('refuse');
  });

  it.each([
    ['memory.core.max_chars', '499'],
    ['memory.core.max_chars', '6001'],
    ['memory.core.max_chars', 'abc'],
    ['memory.core.max_chars', '4000.5'],
    ['memory.core.enabled', 'maybe'],
    ['memory.core.remote_edit', 'sometimes'],
    ['memory.pressure.warn_ratio', '1'],
    ['memory.pressure.warn_ratio', '0'],
    ['memory.pressure.context_window', '-1'],
    ['memory.capture.visibility', 'public'],
    ['memory.capture.ttl', 'P30D'],
    ['memory.capture.exclude', '  '],
  ])('%s %j → invalid_config_value naming the allowed values; nothing written', (key, value) => {
    const h = fresh();
    expect(() => configSet(h, key, value)).toThrow(expect.objectContaining({ code: 'invalid_config_value', message: expect.stringContaining(`${key} must be `) }));
    expect(readConfigFile(h)).toEqual({});
  });

  it('unknown keys → unknown_config_key listing the known ones (get and set)', () => {
    const h = fresh();
    expect(() => configSet(h, 'memory.core.max_char', '500')).toThrow(expect.objectContaining({ code: 'unknown_config_key', message: expect.stringContaining('known keys: memory.core.enabled') }));
    expect(() => configGet(h, 'nope')).toThrow(expect.objectContaining({ code: 'unknown_config_key' }));
  });

  it('--force stores without validation; the safe value is used while doctor reports it; a nested spelling is replaced', () => {
    const h = fresh();
    writeFileSync(join(h, 'config.json'), JSON.stringify({ memory: { core: { max_chars: 700 } } }));
    expect(configSet(h, 'memory.core.max_chars', '9000', { force: true })).toBe('memory.core.max_chars = 9000');
    expect(JSON.parse(readFileSync(join(h, 'config.json'), 'utf8'))).toEqual({ 'memory.core.max_chars': 9000 });
    expect(memorySettings(readConfigFile(h)).maxChars).toBe(6000);
    configSet(h, 'memory.core.enabled', '"yes"', { force: true });
    expect(memorySettings(readConfigFile(h)).coreEnabled).toBe(false);
  });
});
