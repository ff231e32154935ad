import type { FactVisibility } from '../pages/facts-table.js';
import { CONFIG_KEYS, configKeySpec, storedConfigValue } from './config-keys.js';
import { formatConfigValue } from './config-set.js';
import type { RemoteEditPolicy } from './remote-edit.js';

/** The `memory.*` settings in effect (stored out-of-range values replaced by safe ones). */
export interface MemorySettings {
  coreEnabled: boolean;
  maxChars: number;
  remoteEdit: RemoteEditPolicy;
  pressureEnabled: boolean;
  warnRatio: number;
  contextWindow: number | null;
  captureVisibility: FactVisibility;
  captureTtl: string | null;
  captureExclude: string;
  volunteerRetentionDays: number;
  serveIdleMinutes: number;
}

const value = (config: Record<string, unknown>, key: string): unknown =>
  configKeySpec(key)!.effective(storedConfigValue(config, key)).value;

export function memorySettings(config: Record<string, unknown>): MemorySettings {
  return {
    coreEnabled: value(config, 'memory.core.enabled') as boolean,
    maxChars: value(config, 'memory.core.max_chars') as number,
    remoteEdit: value(config, 'memory.core.remote_edit') as RemoteEditPolicy,
    pressureEnabled: value(config, 'memory.pressure.enabled') as boolean,
    warnRatio: value(config, 'memory.pressure.warn_ratio') as number,
    contextWindow: value(config, 'memory.pressure.context_window') as number | null,
    captureVisibility: value(config, 'memory.capture.visibility') as FactVisibility,
    captureTtl: value(config, 'memory.capture.ttl') as string | null,
    captureExclude: value(config, 'memory.capture.exclude') as string,
    volunteerRetentionDays: value(config, 'memory.volunteer.retention_days') as number,
    serveIdleMinutes: value(config, 'memory.serve.idle_minutes') as number,
  };
}

export interface OutOfRangeSetting {
  key: string;
  /** The stored value. */
  stored: unknown;
  /** The value used instead (null = unset). */
  used: unknown;
  allowed: string;
  message: string;
  fix: string;
}

/** Every stored setting that is out of range, with the safe value used and a fix (doctor). */
export function outOfRangeSettings(config: Record<string, unknown>): OutOfRangeSetting[] {
  return CONFIG_KEYS.flatMap((spec) => {
    const stored = storedConfigValue(config, spec.key);
    const effective = spec.effective(stored);
    if (effective.valid) return [];
    const used = effective.value === null ? 'unset' : formatConfigValue(effective.value);
    const example = effective.value === null ? `<${spec.allowed}>` : formatConfigValue(effective.value);
    return [
      {
        key: spec.key,
        stored,
        used: effective.value,
        allowed: spec.allowed,
        message: `${spec.key} is ${JSON.stringify(stored)}, not ${spec.allowed}; using ${used}`,
        fix: `brainstream config set ${spec.key} ${example}`,
      },
    ];
  });
}
