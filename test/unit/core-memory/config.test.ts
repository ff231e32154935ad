import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, storedConfigValue } from '../../../src/core-memory/config-keys.js';
import { configGetText, configSetLine, forcedConfigValue, parseConfigSet } from '../../../src/core-memory/config-set.js';
import { InvalidConfigValueError, UnknownConfigKeyError } from '../../../src/core-memory/errors.js';
import { memorySettings, outOfRangeSettings } from '../../../src/core-memory/memory-settings.js';

const set = (key: string, raw: string) => parseConfigSet(key, raw).value;
function invalid(key: string, raw: string): InvalidConfigValueError {
  try {
    parseConfigSet(key, raw);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidConfigValueError);
    return error as InvalidConfigValueError;
  }
  throw new Error(`expected ${key}=${raw} to be refused`);
}

describe('config defaults', () => {
  it('uses the documented defaults with an empty config', () => {
    expect(memorySettings({})).toEqual({
      coreEnabled: false,
      maxChars: 4000,
      remoteEdit: 'notify',
      pressureEnabled: true,
      warnRatio: 0.8,
      contextWindow: null,
      captureVisibility: 'world',
      captureTtl: null,
      captureExclude: 'secrets, credentials, access tokens',
      volunteerRetentionDays: 90,
      serveIdleMinutes: 30,
    });
  });

  it('knows every memory.* and push-context key', () => {
    expect(CONFIG_KEYS.map((k) => k.key).sort()).toEqual(
      [
        'memory.capture.exclude',
        'memory.capture.ttl',
        'memory.capture.visibility',
        'memory.core.enabled',
        'memory.core.max_chars',
        'memory.core.remote_edit',
        'memory.pressure.context_window',
        'memory.pressure.enabled',
        'memory.pressure.warn_ratio',
        'memory.serve.idle_minutes',
        'memory.volunteer.retention_days',
        'retrieval.reflex.enabled',
        'retrieval.reflex.gazetteer',
        'retrieval.reflex.learning',
        'retrieval.reflex.lexical_arms',
        'retrieval.reflex.max_pointers',
        'retrieval.reflex.tool_max_pages',
        'retrieval.reflex.tool_min_confidence',
        'retrieval.reflex.window_turns',
      ].sort(),
    );
  });
});

describe('config set validation', () => {
  it.each(['true', 'TRUE', '1', 'yes', 'On'])('boolean %s → true', (raw) => expect(set('memory.core.enabled', raw)).toBe(true));
  it.each(['false', 'False', '0', 'no', 'OFF'])('boolean %s → false', (raw) => expect(set('memory.pressure.enabled', raw)).toBe(false));

  it('refuses other booleans, saying what is allowed', () => {
    const e = invalid('memory.core.enabled', 'maybe');
    expect(e.code).toBe('invalid_config_value');
    expect(e.message).toBe('memory.core.enabled must be true or false (also 1/0, yes/no, on/off), got "maybe"');
  });

  it('max_chars: integer 500..6000 inclusive', () => {
    expect(set('memory.core.max_chars', '500')).toBe(500);
    expect(set('memory.core.max_chars', '6000')).toBe(6000);
    for (const raw of ['499', '6001', '4000.5', 'abc', '']) invalid('memory.core.max_chars', raw);
    expect(invalid('memory.core.max_chars', '7000').message).toBe('memory.core.max_chars must be a whole number from 500 to 6000, got "7000"');
  });

  it('remote_edit and capture.visibility: closed sets', () => {
    expect(set('memory.core.remote_edit', 'refuse')).toBe('refuse');
    expect(set('memory.core.remote_edit', 'Allow')).toBe('allow');
    expect(invalid('memory.core.remote_edit', 'deny').message).toBe('memory.core.remote_edit must be one of allow, notify, refuse, got "deny"');
    expect(set('memory.capture.visibility', 'private')).toBe('private');
    invalid('memory.capture.visibility', 'public');
  });

  it('warn_ratio: 0 < r < 1', () => {
    expect(set('memory.pressure.warn_ratio', '0.5')).toBe(0.5);
    for (const raw of ['0', '1', '1.2', '-0.1', 'x']) invalid('memory.pressure.warn_ratio', raw);
  });

  it('context_window and retention: positive integers', () => {
    expect(set('memory.pressure.context_window', '100000')).toBe(100000);
    invalid('memory.pressure.context_window', '0');
    invalid('memory.pressure.context_window', '1.5');
    expect(set('memory.volunteer.retention_days', '30')).toBe(30);
    expect(set('memory.serve.idle_minutes', '5')).toBe(5);
    invalid('memory.serve.idle_minutes', '0');
    invalid('memory.volunteer.retention_days', '0');
  });

  it('capture.ttl: a remember ttl', () => {
    expect(set('memory.capture.ttl', '30d')).toBe('30d');
    expect(set('memory.capture.ttl', '2026-05-01')).toBe('2026-05-01');
    invalid('memory.capture.ttl', 'P30D');
  });

  it('capture.exclude: non-empty text', () => {
    expect(set('memory.capture.exclude', ' passwords ')).toBe('passwords');
    invalid('memory.capture.exclude', '  ');
  });

  it('push-context keys are settable the same way', () => {
    expect(set('retrieval.reflex.enabled', 'off')).toBe(false);
    expect(set('retrieval.reflex.window_turns', '6')).toBe(6);
    expect(set('retrieval.reflex.max_pointers', '2')).toBe(2);
    expect(set('retrieval.reflex.lexical_arms', 'no')).toBe(false);
    expect(set('retrieval.reflex.gazetteer', 'yes')).toBe(true);
    invalid('retrieval.reflex.window_turns', '0');
  });

  it('unknown keys → unknown_config_key, even with --force', () => {
    expect(() => parseConfigSet('memory.core.size', '1')).toThrow(UnknownConfigKeyError);
    expect(() => parseConfigSet('nope', '1', { force: true })).toThrow(UnknownConfigKeyError);
  });

  it('--force stores without validation, keeping JSON scalar types', () => {
    expect(parseConfigSet('memory.core.max_chars', '9000', { force: true }).value).toBe(9000);
    expect(parseConfigSet('memory.core.enabled', 'maybe', { force: true }).value).toBe('maybe');
    expect(forcedConfigValue('true')).toBe(true);
    expect(forcedConfigValue('null')).toBeNull();
    expect(forcedConfigValue('[1]')).toBe('[1]');
  });
});

describe('config get / set output', () => {
  it('prints the stored value, else the default; strings bare; unset → ""', () => {
    expect(configGetText({}, 'memory.core.max_chars')).toBe('4000');
    expect(configGetText({ 'memory.core.max_chars': 5000 }, 'memory.core.max_chars')).toBe('5000');
    expect(configGetText({}, 'memory.core.remote_edit')).toBe('notify');
    expect(configGetText({}, 'memory.pressure.context_window')).toBe('');
    expect(configGetText({}, 'memory.core.enabled')).toBe('false');
    expect(configGetText({}, 'memory.pressure.warn_ratio')).toBe('0.8');
    expect(() => configGetText({}, 'x')).toThrow(UnknownConfigKeyError);
    expect(configSetLine('memory.core.enabled', true)).toBe('memory.core.enabled = true');
  });

  it('reads flat keys first, nested objects as a fallback', () => {
    expect(storedConfigValue({ 'memory.core.enabled': true }, 'memory.core.enabled')).toBe(true);
    expect(storedConfigValue({ memory: { core: { enabled: true } } }, 'memory.core.enabled')).toBe(true);
    expect(storedConfigValue({ memory: {} }, 'memory.core.enabled')).toBeUndefined();
  });
});

describe('stored out-of-range values', () => {
  it('uses safe values', () => {
    expect(
      memorySettings({
        'memory.core.enabled': 'yes',
        'memory.core.max_chars': 9000,
        'memory.core.remote_edit': 'deny',
        'memory.pressure.enabled': 'no',
        'memory.pressure.warn_ratio': 1.5,
        'memory.pressure.context_window': -1,
        'memory.capture.visibility': 'public',
        'memory.capture.ttl': 'P30D',
        'memory.capture.exclude': '',
        'memory.volunteer.retention_days': 0,
        'memory.serve.idle_minutes': 0,
      }),
    ).toEqual({
      coreEnabled: false,
      maxChars: 6000,
      remoteEdit: 'notify',
      pressureEnabled: true,
      warnRatio: 0.8,
      contextWindow: null,
      captureVisibility: 'private',
      captureTtl: null,
      captureExclude: 'secrets, credentials, access tokens',
      volunteerRetentionDays: 90,
      serveIdleMinutes: 30,
    });
    expect(memorySettings({ 'memory.core.max_chars': 100 }).maxChars).toBe(500);
    expect(memorySettings({ 'memory.core.max_chars': 'big' }).maxChars).toBe(4000);
  });

  it('lists each out-of-range setting with the value used and a fix', () => {
    const found = outOfRangeSettings({ 'memory.core.max_chars': 9000, 'memory.core.enabled': true, 'memory.pressure.context_window': 'x' });
    expect(found.map((f) => f.key)).toEqual(['memory.core.max_chars', 'memory.pressure.context_window']);
    expect(found[0]).toMatchObject({
      stored: 9000,
      used: 6000,
      message: 'memory.core.max_chars is 9000, not a whole number from 500 to 6000; using 6000',
      fix: 'brainstream config set memory.core.max_chars 6000',
    });
    expect(found[1]).toMatchObject({ used: null, message: 'memory.pressure.context_window is "x", not a whole number of tokens of at least 1; using unset' });
    expect(outOfRangeSettings({})).toEqual([]);
  });
});
