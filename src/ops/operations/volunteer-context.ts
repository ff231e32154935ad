import { z } from 'zod';
import { pushSettings } from '../../config/push-settings.js';
import { oneShotJson } from '../../context/render.js';
import { BrainstreamError } from '../../errors.js';
import { RANGES, rangeText, rangedNumber, type NumberRange } from '../../context/number-ranges.js';
import { DEFAULT_STATS_DAYS, volunteerStats } from '../../stats/volunteer-stats.js';
import { volunteerOnce } from '../volunteer-once.js';
import { defineOperation, READ_ONLY, type OpContext } from './operation.js';
import { opConfig } from './op-settings.js';
import { SessionParam } from './slug-param.js';

const MAX_TURN = 2 ** 31 - 1;

/** MCP rule: a non-integer or out-of-range turn is logged as null, never refused. */
const TurnParam = z
  .number()
  .nullable()
  .optional()
  .transform((t) => (typeof t === 'number' && Number.isInteger(t) && Math.abs(t) <= MAX_TURN ? t : null))
  .describe(`Turn number within the session, logged with what is volunteered (a non-integer or |turn| > ${MAX_TURN} is logged as null).`);

const ranged = (r: NumberRange, what: string): string => `${what}: ${rangeText(r)}`;

const Params = z.strictObject({
  window: z
    .string()
    .nullable()
    .optional()
    .describe('The recent conversation, oldest first, as "user: …" / "assistant: …" lines (unprefixed text is one user turn). Required unless stats is true.'),
  prior_context: z.string().nullable().optional().describe('Context already shown to the reader (e.g. earlier volunteered blocks): a page whose slug (or title) appears there is not volunteered again.'),
  max_pages: rangedNumber(RANGES.maxPages).nullable().optional().describe(ranged(RANGES.maxPages, 'Most pages to return') + '. Default: config.'),
  min_confidence: rangedNumber(RANGES.minConfidence).nullable().optional().describe(ranged(RANGES.minConfidence, 'Confidence gate') + '. Default: config.'),
  window_turns: rangedNumber(RANGES.windowTurns).nullable().optional().describe(ranged(RANGES.windowTurns, 'Keep only the last N parsed turns') + '. Default: all.'),
  session_id: SessionParam,
  turn: TurnParam,
  stats: z.boolean().nullable().optional().describe('true: return volunteer precision statistics instead (window is ignored). Default false.'),
  days: rangedNumber(RANGES.days).nullable().optional().describe(ranged(RANGES.days, 'With stats: days to look back') + `. Default ${DEFAULT_STATS_DAYS}.`),
  attribution: z
    .enum(['approximate', 'session'])
    .nullable()
    .optional()
    .describe('With stats: "approximate" counts any later read of the page as use; "session" only reads in the same session. Default approximate.'),
});

const VolunteeredPage = z.looseObject({
  slug: z.string().describe('Page slug.'),
  source_id: z.string().describe('Source id of the page.'),
  display: z.string().describe('The name as it appeared in the conversation.'),
  confidence: z.number().describe('Match confidence, 0–1.'),
  arm: z.string().describe('How it matched: slug, alias, title, title-surname, …'),
  rationale: z.string().describe('Why it was volunteered.'),
  synopsis: z.string().describe('One-line synopsis of the page ("" when none).'),
});

const ArmStats = z.looseObject({
  match_arm: z.string().describe('Match arm.'),
  channel: z.string().describe('Channel that volunteered.'),
  volunteered: z.number().int().describe('Pages volunteered.'),
  used: z.number().int().describe('Of those, pages then read.'),
  precision: z.number().describe('used / volunteered.'),
});

/** One object for both forms (an MCP output schema is one object): pages, or with stats the statistics. */
const Result = z.looseObject({
  pages: z.array(VolunteeredPage).optional().describe('Pages worth reading, best first (absent with stats).'),
  count: z.number().int().optional().describe('pages.length (absent with stats).'),
  window_turns: z.number().int().optional().describe('Turns of the window used (absent with stats).'),
  days: z.number().int().optional().describe('With stats: days looked back.'),
  attribution: z.enum(['approximate', 'session']).optional().describe('With stats: attribution used.'),
  approximate: z.boolean().optional().describe('With stats: whether use is approximated.'),
  note: z.string().optional().describe('With stats: how to read the numbers.'),
  total_volunteered: z.number().int().optional().describe('With stats: pages volunteered.'),
  total_used: z.number().int().optional().describe('With stats: of those, pages then read.'),
  by_arm: z.array(ArmStats).optional().describe('With stats: per match arm and channel.'),
});

/** Scope of the caller: remote → its read grant (else its bound source); owner → its source. */
const scopeOf = (ctx: OpContext): string[] =>
  ctx.caller.kind === 'remote' && ctx.caller.grant && ctx.caller.grant.length > 0 ? [...ctx.caller.grant] : [ctx.caller.source];

/** `volunteer_context`: pages worth volunteering for a window, or `stats`. */
export const volunteerContextOp = defineOperation({
  name: 'volunteer_context',
  title: 'Volunteer relevant brain pages',
  description:
    'Given the recent conversation ("user: …" / "assistant: …" lines, oldest first), returns the brain pages worth reading, confidence-gated. With stats: true, returns how often volunteered pages were then read.',
  params: Params,
  result: Result,
  // Logs what it volunteered (for precision stats); pages and facts are untouched.
  effect: READ_ONLY,
  access: 'any',
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
      learning: settings.learning,
    });
    return oneShotJson(result.pages, result.windowTurns);
  },
});
