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

/** A pure function of (config, env); lexical arms are meant to be re-read per request. */
export function pushSettings(config: StoredConfig, env: Readonly<Record<string, string | undefined>> = process.env): PushSettings {
  return {
    reflex: reflexFromEnv(env.BRAINSTREAM_RETRIEVAL_REFLEX) ?? (configured(config, 'retrieval_reflex') as boolean),
    windowTurns: windowFromEnv(env.BRAINSTREAM_RETRIEVAL_REFLEX_WINDOW_TURNS) ?? (configured(config, 'retrieval_reflex_window_turns') as number),
    maxPointers: configured(config, 'retrieval_reflex_max_pointers') as number,
    lexicalArms: armsFromEnv(env.BRAINSTREAM_RETRIEVAL_REFLEX_LEXICAL_ARMS) ?? (configured(config, 'retrieval_reflex_lexical_arms') as boolean),
    gazetteer: configured(config, 'retrieval_reflex_gazetteer') as boolean,
    toolMinConfidence: configured(config, 'retrieval_reflex_tool_min_confidence') as number,
    toolMaxPages: configured(config, 'retrieval_reflex_tool_max_pages') as number,
  };
}
