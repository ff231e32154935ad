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

/** A named operation with validated params: the one surface behind `call`, MCP and serve. */
export interface Operation<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  params: S;
  run(ctx: OpContext, params: z.output<S>): Promise<unknown>;
}

/** Keeps the param type of each operation checked against its schema. */
export const defineOperation = <S extends z.ZodType>(op: Operation<S>): Operation<S> => op;
