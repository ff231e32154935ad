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
  /** Where long work reports how far it is (a progress bar on the CLI); silent when absent. */
  progress?: ProgressSink;
}

/** A progress report for one stretch of long work, named by `label`. */
export interface ProgressReport {
  update(done: number, total: number): void;
  stop(): void;
}

export type ProgressSink = (label: string) => ProgressReport;

/**
 * What a host operation runs against: who is asking and the brain's home, with the brain opened
 * only when the operation asks for it (`purge --kafka` and `config set` never do).
 */
export interface HostOpContext {
  caller: Caller;
  home: string | null;
  progress?: ProgressSink;
  /** Runs `fn` on the brain of `home`, opened for it when no surface holds it open already. */
  withBrain<T>(fn: (brain: Brain) => Promise<T>): Promise<T>;
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
export interface Operation<S extends z.ZodType = z.ZodType> extends OperationDeclaration<S> {
  /** Runs on an open brain (the default). */
  runsOn?: 'brain';
  run(ctx: OpContext, params: z.output<S>): Promise<unknown>;
}

/**
 * An operation that works on the brain's host rather than on an open brain: it opens the brain
 * through its context only when it needs it, so work that needs none opens nothing.
 */
export interface HostOperation<S extends z.ZodType = z.ZodType> extends OperationDeclaration<S> {
  runsOn: 'host';
  run(ctx: HostOpContext, params: z.output<S>): Promise<unknown>;
}

export type AnyOperation = Operation | HostOperation;

/** What every operation declares, statically: its name, params, result, effect and access. */
export interface OperationDeclaration<S extends z.ZodType = z.ZodType> {
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
  /** The `owner_only` message a refused remote caller gets, when it names a command of its own. */
  refusal?: string;
}

/** Keeps the param type of each operation checked against its schema. */
export const defineOperation = <S extends z.ZodType>(op: Operation<S>): Operation<S> => op;

export const defineHostOperation = <S extends z.ZodType>(op: HostOperation<S>): HostOperation<S> => op;

export const READ_ONLY: OperationEffect = { readOnly: true, destructive: false, idempotent: true };
