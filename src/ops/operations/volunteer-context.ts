import { z } from 'zod';
import { pushSettings } from '../../config/push-settings.js';
import { oneShotJson } from '../../context/render.js';
import { BrainstreamError } from '../../errors.js';
import { RANGES, rangedNumber } from '../../domain/number-ranges.js';
import { DEFAULT_STATS_DAYS, volunteerStats } from '../../stats/volunteer-stats.js';
import { volunteerOnce } from '../volunteer-once.js';
import { defineOperation, type OpContext } from './operation.js';
import { opConfig } from './op-settings.js';
import { SessionParam } from './slug-param.js';

const MAX_TURN = 2 ** 31 - 1;

/** MCP rule: a non-integer or out-of-range turn is logged as null, never refused. */
const TurnParam = z
  .unknown()
  .optional()
  .transform((t) => (typeof t === 'number' && Number.isInteger(t) && Math.abs(t) <= MAX_TURN ? t : null));

const Params = z.object({
  window: z.string().nullable().optional(),
  prior_context: z.string().nullable().optional(),
  max_pages: rangedNumber(RANGES.maxPages).nullable().optional(),
  min_confidence: rangedNumber(RANGES.minConfidence).nullable().optional(),
  window_turns: rangedNumber(RANGES.windowTurns).nullable().optional(),
  session_id: SessionParam,
  turn: TurnParam,
  stats: z.boolean().nullable().optional(),
  days: rangedNumber(RANGES.days).nullable().optional(),
  attribution: z.enum(['approximate', 'session']).nullable().optional(),
});

/** Scope of the caller: remote → its read grant (else its bound source); owner → its source. */
const scopeOf = (ctx: OpContext): string[] =>
  ctx.caller.kind === 'remote' && ctx.caller.grant && ctx.caller.grant.length > 0 ? [...ctx.caller.grant] : [ctx.caller.source];

/** `volunteer_context`: pages worth volunteering for a window, or `stats`. */
export const volunteerContextOp = defineOperation({
  name: 'volunteer_context',
  description:
    'Given the recent conversation ("user: …" / "assistant: …" lines, oldest first), returns the brain pages worth reading, confidence-gated. With stats: true, returns how often volunteered pages were then read.',
  params: Params,
  async run(ctx, p) {
    if (p.stats === true) {
      return volunteerStats(ctx.brain.db, scopeOf(ctx), p.days ?? DEFAULT_STATS_DAYS, p.attribution ?? 'approximate');
    }
    if (typeof p.window !== 'string' || p.window.trim() === '') {
      throw new BrainstreamError('invalid_params', 'window is required unless stats: true', { field: 'window' });
    }
    const settings = pushSettings(opConfig(ctx));
    const result = await volunteerOnce(ctx.brain, await ctx.pageIndex(), ctx.caller, {
      window: p.window,
      priorContext: p.prior_context ?? undefined,
      maxPages: p.max_pages ?? undefined,
      minConfidence: p.min_confidence ?? undefined,
      windowTurns: p.window_turns ?? undefined,
      sessionId: p.session_id,
      turn: p.turn,
      lexicalArms: settings.lexicalArms,
      gazetteer: settings.gazetteer,
    });
    return oneShotJson(result.pages, result.windowTurns);
  },
});
