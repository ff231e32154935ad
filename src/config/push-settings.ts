import type { StoredConfig } from './config-file.js';

/** Effective push-context settings (push-context spec §12): env overrides win when valid. */
export interface PushSettings {
  reflex: boolean;
  windowTurns: number;
  maxPointers: number;
  lexicalArms: boolean;
  gazetteer: boolean;
}

const envOff = (v: string): boolean => ['false', '0', 'off', 'no'].includes(v.trim().toLowerCase());

export function pushSettings(config: StoredConfig, env: NodeJS.ProcessEnv = process.env): PushSettings {
  return {
    reflex: reflexSwitch(config, env),
    windowTurns: windowTurns(config, env),
    maxPointers: typeof config.retrieval_reflex_max_pointers === 'number' && config.retrieval_reflex_max_pointers > 0
      ? Math.floor(config.retrieval_reflex_max_pointers)
      : 3,
    lexicalArms: lexicalArms(config, env),
    gazetteer: config.retrieval_reflex_gazetteer !== false,
  };
}

/** env `false`/`0` → off, other non-empty → on; config off only if exactly `false`. */
function reflexSwitch(config: StoredConfig, env: NodeJS.ProcessEnv): boolean {
  const v = env.BRAINSTREAM_RETRIEVAL_REFLEX;
  if (v !== undefined && v !== '') return !(v === 'false' || v === '0');
  return config.retrieval_reflex !== false;
}

/** env: a finite number ≥ 1 → floor, else falls through; config: number ≥ 1 → floor, else 4. */
function windowTurns(config: StoredConfig, env: NodeJS.ProcessEnv): number {
  const raw = env.BRAINSTREAM_RETRIEVAL_REFLEX_WINDOW_TURNS;
  if (raw !== undefined && raw.trim() !== '') {
    const n = Number(raw);
    if (Number.isFinite(n) && n >= 1) return Math.floor(n);
  }
  const c = config.retrieval_reflex_window_turns;
  return typeof c === 'number' && Number.isFinite(c) && c >= 1 ? Math.floor(c) : 4;
}

/** env trimmed, case-insensitive false/0/off/no → off, other non-empty → on, empty → config. */
function lexicalArms(config: StoredConfig, env: NodeJS.ProcessEnv): boolean {
  const v = env.BRAINSTREAM_RETRIEVAL_REFLEX_LEXICAL_ARMS;
  if (v !== undefined && v.trim() !== '') return !envOff(v);
  return config.retrieval_reflex_lexical_arms !== false;
}
