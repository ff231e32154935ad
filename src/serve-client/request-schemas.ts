import { z } from 'zod';
import type { Turn } from '../context/turn.js';
import { SourceId } from '../domain/event-schemas.js';

/** Turns with a known role and string text; anything else in the list is skipped. */
const Turns = z.array(z.unknown()).transform((items): Turn[] =>
  items.flatMap((t) => {
    const o = t as { role?: unknown; text?: unknown } | null;
    return o && typeof o === 'object' && (o.role === 'user' || o.role === 'assistant' || o.role === 'tool') && typeof o.text === 'string'
      ? [{ role: o.role, text: o.text }]
      : [];
  }),
);

const OptionalText = z
  .string()
  .nullish()
  .transform((s) => s ?? undefined);

const TurnContextSchema = z.object({
  kind: z.literal('turn_context'),
  window: Turns,
  prior_context: OptionalText,
  session_id: OptionalText,
  source_id: OptionalText,
  channel: z.unknown().optional(),
  shown: z
    .array(z.unknown())
    .optional()
    .transform((xs) => (xs ?? []).filter((x): x is string => typeof x === 'string' && x !== '')),
  tool: OptionalText,
});

const ResolveSchema = z.object({
  kind: z.literal('resolve'),
  messages: Turns,
  prior_context: OptionalText,
  session_id: OptionalText,
  source_id: OptionalText,
});

const CoreBlockSchema = z.object({ kind: z.literal('core_block'), source_id: OptionalText });

const PingSchema = z.object({ kind: z.literal('ping') });

const CommandSchema = z.object({
  kind: z.literal('command'),
  argv: z.array(z.string()).max(10_000),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  stdin: z.string().optional(),
  stdin_stream: z.boolean().optional(),
  stdin_tty: z.boolean().optional(),
  stderr_tty: z.boolean().optional(),
  stream: z.boolean().optional(),
  pid: z.number().int().positive().optional(),
});

/**
 * Strict: a caller carries no `kind` (nor anything else), so no request can name itself the
 * owner; a grant is never null (every source) either.
 */
const WireCallerSchema = z.strictObject({
  identity: z
    .string()
    .min(1)
    .transform((s) => s.slice(0, 256)),
  source: SourceId,
  grant: z.array(SourceId).min(1).max(1000),
});

const OperationSchema = z.object({
  kind: z.literal('operation'),
  op: z.string(),
  params: z.unknown().optional(),
  caller: WireCallerSchema,
  env: z.record(z.string(), z.string()).optional(),
});

export type TurnContextParams = z.output<typeof TurnContextSchema>;
export type ResolveParams = z.output<typeof ResolveSchema>;
export type CommandParams = z.output<typeof CommandSchema>;
export type OperationParams = z.output<typeof OperationSchema>;

export const REQUEST_SCHEMAS = {
  turn_context: TurnContextSchema,
  resolve: ResolveSchema,
  core_block: CoreBlockSchema,
  ping: PingSchema,
  command: CommandSchema,
  operation: OperationSchema,
} as const;

export type RequestKind = keyof typeof REQUEST_SCHEMAS;
