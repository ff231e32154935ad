import type { Command } from 'commander';
import { oneShotJson, renderHuman } from '../../context/render.js';
import { readConfigFile } from '../../config/config-file.js';
import { pushSettings } from '../../config/push-settings.js';
import { UsageError } from '../../errors.js';
import { coldOneShot } from '../../ops/cold-one-shot.js';
import { volunteerOnce } from '../../ops/volunteer-once.js';
import { hostedBrain } from '../../serve/hosted-brain.js';
import { RANGES } from '../../context/number-ranges.js';
import { parseIntegerFlag, parseRangedFlag } from '../flags.js';
import { commandContext } from '../globals.js';
import { out, outJson } from '../output.js';
import { readStdin } from '../read-stdin.js';
import { withBrain } from '../with-brain.js';
import { runStats } from './volunteer-stats.js';

interface Flags {
  json?: boolean;
  minConfidence?: string;
  maxPages?: string;
  windowTurns?: string;
  priorContext?: string;
  sessionId?: string;
  turn?: string;
  stats?: boolean;
  days?: string;
  attribution?: string;
}

export function registerVolunteerContext(program: Command): void {
  program
    .command('volunteer-context')
    .description('one-shot: read recent turns on stdin and print the pages worth volunteering')
    .option('--json', 'print one compact JSON line')
    .option('--min-confidence <x>', 'gate (0..1, default 0.7)')
    .option('--max-pages <n>', 'cap (1..5, default 3)')
    .option('--window-turns <n>', 'keep only the last N parsed turns (1..64)')
    .option('--prior-context <text>', 'text already shown; whole slugs in it are suppressed')
    .option('--session-id <id>', 'session the volunteered pages are logged under')
    .option('--turn <n>', 'turn number the volunteered pages are logged under')
    .option('--source <id>', 'the source to act on (default: BRAINSTREAM_SOURCE or "default")')
    .option('--stats', 'print the feedback statistics instead (stdin is not read)')
    .option('--days <n>', 'stats window in days (1..36500, default 30)')
    .option('--attribution <mode>', 'approximate (default) or session')
    .action(async (flags: Flags, cmd: Command) => {
      const ctx = commandContext(cmd);
      const minConfidence = parseRangedFlag('--min-confidence', flags.minConfidence, RANGES.minConfidence);
      const maxPages = parseRangedFlag('--max-pages', flags.maxPages, RANGES.maxPages);
      const windowTurns = parseRangedFlag('--window-turns', flags.windowTurns, RANGES.windowTurns);
      const turn = parseIntegerFlag('--turn', flags.turn);
      if (flags.stats) return runStats(ctx, { days: flags.days, attribution: flags.attribution });
      const window = await readStdin();
      if (window.trim() === '') throw new UsageError('window is required unless --stats');
      const settings = pushSettings(readConfigFile(ctx.home));
      const req = {
        window,
        priorContext: flags.priorContext,
        maxPages,
        minConfidence,
        windowTurns,
        sessionId: flags.sessionId ?? null,
        turn: turn ?? null,
        lexicalArms: settings.lexicalArms,
        gazetteer: settings.gazetteer,
        learning: settings.learning,
      };
      // Nobody holds the brain open here: decide from the page snapshot when it is current
      // (no database start), else open the brain. The learning gate reads the brain's tables.
      const cold = hostedBrain(ctx.home) || settings.learning ? null : coldOneShot(ctx.home, ctx.caller, req);
      const result = cold ?? (await withBrain(ctx.home, async (brain) => volunteerOnce(brain, await brain.pageIndex(), ctx.caller, req)));
      if (ctx.json) outJson(oneShotJson(result.pages, result.windowTurns));
      else out(renderHuman(result.pages));
    });
}
