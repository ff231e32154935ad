import { z } from 'zod';
import { coreStatusJson } from '../../core-memory/core-listing.js';
import { memorySettings } from '../../core-memory/memory-settings.js';
import { loadCoreRows } from './core-rows.js';
import { readPendingCoreNotices } from '../../core-memory/core-notice-store.js';
import { defineOperation } from './operation.js';
import { opConfig, opNow, utcDay } from './op-settings.js';

/** `core_status` (as `core status --json`): budget, revision and the pages the caller can see. */
export const coreStatusOp = defineOperation({
  name: 'core_status',
  description: 'Core memory status: enabled, budget use, revision, pending remote-edit notices and the core pages you can see.',
  params: z.object({}),
  async run(ctx) {
    const settings = memorySettings(opConfig(ctx));
    const pages = await loadCoreRows(ctx.brain.db);
    return coreStatusJson({
      pages,
      settings: { coreEnabled: settings.coreEnabled, maxChars: settings.maxChars, remoteEdit: settings.remoteEdit },
      readable: ctx.caller.grant,
      includePrivate: ctx.caller.kind === 'owner',
      pending: await readPendingCoreNotices(ctx.brain.db),
      today: utcDay(opNow(ctx)),
    });
  },
});
