import { z } from 'zod';
import { coreStatusJson } from '../../core-memory/core-listing.js';
import { memorySettings } from '../../core-memory/memory-settings.js';
import { loadCoreRows } from '../../../projections/pages-queries.js';
import { readPendingCoreNotices } from '../../../projections/core-notices-queries.js';
import { defineOperation, READ_ONLY } from './operation.js';
import { opConfig, opNow, utcDay } from './op-settings.js';

/** `core_status` (as `core status --json`): budget, revision and the pages the caller can see. */
export const coreStatusOp = defineOperation({
  name: 'core_status',
  title: 'Core memory status',
  description: 'Core memory status: enabled, budget use, revision, pending remote-edit notices and the core pages you can see.',
  params: z.strictObject({}),
  result: z.looseObject({
    enabled: z.boolean().describe('Whether core memory is on (memory.core.enabled).'),
    max_chars: z.number().int().describe('Budget of the core block, in characters.'),
    used_chars: z.number().int().describe('Characters the core block uses.'),
    over_by: z.number().int().describe('Characters over the budget (0 when within).'),
    over_budget: z.boolean().describe('Over the character budget or the page limit.'),
    remaining_chars: z.number().int().describe('Characters left in the budget.'),
    page_count: z.number().int().describe('Core pages.'),
    max_pages: z.number().int().describe('Most core pages allowed.'),
    revision: z.string().describe('Revision of the core block.'),
    remote_edit: z.enum(['allow', 'notify', 'refuse']).describe('Policy for remote edits of core pages.'),
    pending_notices: z
      .array(z.looseObject({ source_id: z.string().describe('Source id.'), slug: z.string().describe('Page slug.'), revision: z.string().describe('Revision edited.') }))
      .describe('Remote edits of core pages waiting for the owner.'),
    pages: z
      .array(
        z.looseObject({
          source_id: z.string().describe('Source id.'),
          slug: z.string().describe('Page slug.'),
          title: z.string().describe('Page title.'),
          priority: z.number().describe('Core priority (lower renders first).'),
          chars: z.number().int().describe('Characters of its section.'),
          renders: z.boolean().describe('Whether it is in the block.'),
        }),
      )
      .describe('The core pages you can see (private ones never).'),
  }),
  effect: READ_ONLY,
  access: 'any',
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
