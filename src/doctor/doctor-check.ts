import type { Caller } from '../caller.js';
import type { Db } from '../db/db.js';

export type CheckStatus = 'ok' | 'warn' | 'fail';

/** One doctor finding: `<status>  <name>: <message>`, or its JSON object. */
export interface DoctorCheck {
  name: string;
  status: CheckStatus;
  message: string;
  details?: Record<string, unknown>;
}

export interface DoctorContext {
  home: string;
  caller: Caller;
  db: Db;
  /** Sources the checks are scoped to; null = every source. */
  sources: readonly string[] | null;
  now: Date;
}

/** A check: one function of the context. Throwing makes the check `fail` with the error's message. */
export interface DoctorCheckDef {
  name: string;
  run(ctx: DoctorContext): Promise<DoctorCheck>;
}
