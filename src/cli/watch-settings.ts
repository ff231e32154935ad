import { clampWindowTurns } from '../context/knobs.js';
import { readConfigFile } from '../config/config-file.js';
import { pushSettings } from '../config/push-settings.js';
import type { SessionSettings } from '../domain/event-schemas.js';
import { RANGES } from '../context/number-ranges.js';
import { parseRangedFlag } from './flags.js';

/** Names the session whose rest was handed over to serve by the cold path: its "ready" line was printed already. */
export const WATCH_CONTINUED_ENV = 'BRAINSTREAM_WATCH_CONTINUED';

/** The knob flags of `watch`, as given on the command line. */
export interface WatchKnobFlags {
  windowTurns?: string;
  maxPages?: string;
  minConfidence?: string;
}

/** The session's knobs travel with its turns, so whichever process decides them applies the same. */
export function sessionSettings(home: string, flags: WatchKnobFlags, remote: boolean): SessionSettings {
  const windowFlag = parseRangedFlag('--window-turns', flags.windowTurns, RANGES.windowTurns);
  const maxPages = parseRangedFlag('--max-pages', flags.maxPages, RANGES.maxPages);
  const minConfidence = parseRangedFlag('--min-confidence', flags.minConfidence, RANGES.minConfidence);
  // The configured window follows the knob rule (an old config may hold 100): only flags are refused.
  const settings: SessionSettings = { window_turns: windowFlag ?? clampWindowTurns(pushSettings(readConfigFile(home)).windowTurns) };
  if (maxPages !== undefined) settings.max_pages = maxPages;
  if (minConfidence !== undefined) settings.min_confidence = minConfidence;
  if (remote) settings.remote = true;
  // An environment override of the lexical arms belongs to this session (config is re-read per turn).
  if ((process.env.BRAINSTREAM_RETRIEVAL_REFLEX_LEXICAL_ARMS ?? '').trim() !== '') settings.lexical_arms = pushSettings({}).lexicalArms;
  return settings;
}
