import type { z } from 'zod';
import type { Brain } from '../../brain/brain.js';
import type { Caller } from '../../caller.js';
import type { PageIndex } from '../../context/page-index.js';

/** What an operation runs against: an open brain, who is asking, and where config lives. */
export interface OpContext {
  brain: Brain;
  caller: Caller;
  /** The brain's home (config file); null for an in-memory brain. */
  home: string | null;
  /** The live page index (serve passes its own; one-shot callers load it on first use). */
  pageIndex(): Promise<PageIndex>;
  now?: () => Date;
}

/**
 * What a call does to the brain, for clients deciding what to approve (MCP tool annotations).
 * `readOnly`: changes no page or fact (usage records such as retrievals may be logged);
 * `destructive`: may replace or withdraw what is stored; `idempotent`: repeating the same call
 * changes nothing more.
 */
export interface OperationEffect {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
}

/**
 * Who may run an operation: `any` caller (remote callers see only what their grant and the
 * privacy rules allow), or the `owner` alone (a remote caller is refused with `owner_only`
 * before its params are looked at).
 */
export type OperationAccess = 'owner' | 'any';

/** A named operation with validated params: the one surface behind `call`, MCP and serve. */
export interface Operation<S extends z.ZodType = z.ZodType> {
  name: string;
  /** A short human title (MCP tool title). */
  title: string;
  description: string;
  /** Strict: unknown properties are refused; every property carries a description. */
  params: S;
  /** The JSON result's shape (MCP output schema). */
  result: z.ZodObject;
  effect: OperationEffect;
  access: OperationAccess;
  run(ctx: OpContext, params: z.output<S>): Promise<unknown>;
}

/** Keeps the param type of each operation checked against its schema. */
export const defineOperation = <S extends z.ZodType>(op: Operation<S>): Operation<S> => op;

export const READ_ONLY: OperationEffect = { readOnly: true, destructive: false, idempotent: true };
