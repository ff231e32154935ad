import { parseArgs } from 'node:util';
import { resolveHome } from '../home.js';
import type { Caller } from '../caller.js';
import { snapshotCurrent } from '../cold/cold-files.js';
import { coldOneShot } from '../ops/cold-one-shot.js';
import { readConfigFile } from '../config/config-file.js';
import { pushSettings } from '../config/push-settings.js';
import { oneShotJson, renderHuman } from '../context/render.js';
import { RANGES } from '../context/number-ranges.js';
import { parseIntegerFlag, parseRangedFlag } from './flags.js';
import { callerOf, LEAN_GLOBAL_OPTIONS } from './globals.js';
import { out, outJson } from './output.js';
import { readStdin } from './read-stdin.js';

/** What the lean run did: answered, or left the command to the program (with the stdin it read, if any). */
export type ColdVolunteerRun = { answered: true } | { answered: false; stdin?: Buffer };

const OPTIONS = {
  ...LEAN_GLOBAL_OPTIONS,
  debug: { type: 'boolean' },
  'min-confidence': { type: 'string' },
  'max-pages': { type: 'string' },
  'window-turns': { type: 'string' },
  'prior-context': { type: 'string' },
  'session-id': { type: 'string' },
  turn: { type: 'string' },
} as const;

const LEAVE: ColdVolunteerRun = { answered: false };

/**
 * `volunteer-context` when no serve runs, without loading the program: a one-shot call is one
 * decision from the page snapshot, and loading every command (commander, the database driver,
 * RxJS, YAML…) would cost more than the call. It answers only a plain, valid command line —
 * the flags below, each valid as the command itself checks them — with a current snapshot;
 * anything else (help, `--stats`, an unknown or bad flag, no snapshot) is left to the program,
 * which says what is wrong exactly as it always does. The decision, the spool and the output
 * are the command's own functions.
 */
export async function coldVolunteerContext(args: readonly string[]): Promise<ColdVolunteerRun> {
  let plan: { home: string; caller: Caller; json: boolean; knobs: Knobs } | null;
  try {
    plan = planOf(args);
  } catch {
    plan = null;
  }
  if (plan === null || !snapshotCurrent(plan.home)) return LEAVE;
  const window = await readStdin();
  // No window: the program reads the (now empty) stdin and refuses it the same way.
  if (window.trim() === '') return LEAVE;
  const settings = pushSettings(readConfigFile(plan.home));
  const result = coldOneShot(plan.home, plan.caller, { window, ...plan.knobs, lexicalArms: settings.lexicalArms, gazetteer: settings.gazetteer });
  if (result === null) return { answered: false, stdin: Buffer.from(window, 'utf8') };
  if (plan.json) outJson(oneShotJson(result.pages, result.windowTurns));
  else out(renderHuman(result.pages));
  return { answered: true };
}

interface Knobs {
  priorContext: string | undefined;
  maxPages: number | undefined;
  minConfidence: number | undefined;
  windowTurns: number | undefined;
  sessionId: string | null;
  turn: number | null;
}

/** The command line as the program would read it, or null for anything it should handle itself. */
function planOf(args: readonly string[]): { home: string; caller: Caller; json: boolean; knobs: Knobs } | null {
  const { values, positionals } = parseArgs({ args: [...args], options: OPTIONS, strict: true, allowPositionals: true });
  if (positionals.length !== 1 || positionals[0] !== 'volunteer-context') return null;
  const caller = callerOf(values);
  const turn = parseIntegerFlag('--turn', values.turn);
  return {
    home: resolveHome(values.home),
    caller,
    json: values.json === true,
    knobs: {
      priorContext: values['prior-context'],
      minConfidence: parseRangedFlag('--min-confidence', values['min-confidence'], RANGES.minConfidence),
      maxPages: parseRangedFlag('--max-pages', values['max-pages'], RANGES.maxPages),
      windowTurns: parseRangedFlag('--window-turns', values['window-turns'], RANGES.windowTurns),
      sessionId: values['session-id'] ?? null,
      turn: turn ?? null,
    },
  };
}
