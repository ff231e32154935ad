import { BrainstreamError } from '../../errors.js';
import { readConfigFile, type StoredConfig } from '../../config/config-file.js';
import type { OpContext } from './operation.js';

/** The stored config of the brain an operation runs on (in-memory brains have none). */
export const opConfig = (ctx: OpContext): StoredConfig => (ctx.home === null ? {} : readConfigFile(ctx.home));

export const opNow = (ctx: OpContext): Date => (ctx.now ? ctx.now() : new Date());

/** UTC `YYYY-MM-DD`, for fact expiry in core text. */
export const utcDay = (d: Date): string => d.toISOString().slice(0, 10);

/** The brain's home, for operations that keep files there; an in-memory brain has none. */
export function opHome(ctx: { home: string | null }, op: string): string {
  if (ctx.home === null) throw new BrainstreamError('no_home', `${op} needs a brain home; an in-memory brain has none`);
  return ctx.home;
}
