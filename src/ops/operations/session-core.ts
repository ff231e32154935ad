import { renderSessionBlock } from '../../core-memory/core-block.js';
import { memorySettings } from '../../core-memory/memory-settings.js';
import { loadCoreRows } from '../../../projections/pages-queries.js';
import type { OpContext } from './operation.js';
import { opConfig, opNow, utcDay } from './op-settings.js';

/** The caller's session block; "" while core memory is disabled. */
export async function sessionCoreText(ctx: OpContext): Promise<string> {
  if (!memorySettings(opConfig(ctx)).coreEnabled) return '';
  const rows = await loadCoreRows(ctx.brain.db);
  return renderSessionBlock(rows, { sessionSource: ctx.caller.source, readable: ctx.caller.grant }, utcDay(opNow(ctx))).text;
}
