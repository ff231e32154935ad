import { configKeySpec, storedConfigValue } from '../core-memory/config-keys.js';
import type { StoredConfig } from './config-file.js';

/**
 * Effective push-context settings: valid environment overrides win,
 * then the stored config as `config-keys` reads it (the same table `config set` validates
 * against, so what can be stored and what is used never disagree).
 */
export interface PushSettings {
  reflex: boolean;
  windowTurns: number;
  maxPointers: number;
  lexicalArms: boolean;
  gazetteer: boolean;
  /** The gate of a tool turn (a harness's post-tool hook): stricter than a prompt's. */
  toolMinConfidence: number;
  /** Pages one tool turn may push. */
  toolMaxPages: number;
  /** The learning gate: confidences scaled by what the feedback log learned (off by default). */
  learning: boolean;
}

const configured = (config: StoredConfig, key: string): unknown => configKeySpec(key)!.effective(storedConfigValue(config, key)).value;

/** `BRAINSTREAM_RETRIEVAL_REFLEX`: `false`/`0` → off, other non-empty → on, empty → config. */
function reflexFromEnv(raw: string | undefined): boolean | null {
  const v = (raw ?? '').trim().toLowerCase();
  if (v === '') return null;
  return !(v === 'false' || v === '0');
}

/** `…_LEXICAL_ARMS`: `false`/`0`/`off`/`no` → off, other non-empty → on, empty → config. */
function armsFromEnv(raw: string | undefined): boolean | null {
  const v = (raw ?? '').trim().toLowerCase();
  if (v === '') return null;
  return !['false', '0', 'off', 'no'].includes(v);
}

/** `…_WINDOW_TURNS`: a finite number ≥ 1 → floor; anything else falls through to config. */
function windowFromEnv(raw: string | undefined): number | null {
  const v = (raw ?? '').trim();
  if (v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) && n >= 1 ? Math.floor(n) : null;
}

type Env = Readonly<Record<string, string | undefined>>;

/** Settings an environment variable can override for one process (a valid value wins over config). */
export const ENV_OVERRIDES: ReadonlyMap<string, { name: string; read(raw: string | undefined): boolean | number | null }> = new Map([
  ['retrieval.reflex.enabled', { name: 'BRAINSTREAM_RETRIEVAL_REFLEX', read: reflexFromEnv }],
  ['retrieval.reflex.window_turns', { name: 'BRAINSTREAM_RETRIEVAL_REFLEX_WINDOW_TURNS', read: windowFromEnv }],
  ['retrieval.reflex.lexical_arms', { name: 'BRAINSTREAM_RETRIEVAL_REFLEX_LEXICAL_ARMS', read: armsFromEnv }],
]);

/** The value of `key` from a valid environment override, or null when none applies. */
export function envOverride(key: string, env: Env): boolean | number | null {
  const override = ENV_OVERRIDES.get(key);
  return override === undefined ? null : override.read(env[override.name]);
}

const setting = (config: StoredConfig, env: Env, key: string): unknown => envOverride(key, env) ?? configured(config, key);

/** A pure function of (config, env); lexical arms are meant to be re-read per request. */
export function pushSettings(config: StoredConfig, env: Env = process.env): PushSettings {
  return {
    reflex: setting(config, env, 'retrieval.reflex.enabled') as boolean,
    windowTurns: setting(config, env, 'retrieval.reflex.window_turns') as number,
    maxPointers: setting(config, env, 'retrieval.reflex.max_pointers') as number,
    lexicalArms: setting(config, env, 'retrieval.reflex.lexical_arms') as boolean,
    gazetteer: setting(config, env, 'retrieval.reflex.gazetteer') as boolean,
    toolMinConfidence: setting(config, env, 'retrieval.reflex.tool_min_confidence') as number,
    toolMaxPages: setting(config, env, 'retrieval.reflex.tool_max_pages') as number,
    learning: setting(config, env, 'retrieval.reflex.learning') as boolean,
  };
}
