import { z } from 'zod';
import { configSet } from '../../config/config-ops.js';
import { defineHostOperation } from './operation.js';
import { opHome } from './op-settings.js';

/** `config_set`: the owner changes a setting in `<home>/config.json` (`brainstream config set`); no brain is opened. */
export const configSetOp = defineHostOperation({
  name: 'config_set',
  title: 'Change a setting',
  description: 'Change a setting of the brain (validated unless forced) in its config.json (owner only).',
  params: z.strictObject({
    key: z.string().min(1).describe('The setting, e.g. memory.core.enabled.'),
    value: z.string().describe('Its new value as text (true/false, a number or text, as the setting expects).'),
    force: z.boolean().optional().describe('Store without validation (recovery and testing).'),
  }),
  result: z.looseObject({ line: z.string().describe('What is now stored, as `config set` prints it.') }),
  effect: { readOnly: false, destructive: true, idempotent: true },
  access: 'owner',
  refusal: 'config set is an owner-only command; ask the user to run it on the brain host',
  runsOn: 'host',
  run: async (ctx, p) => ({ line: configSet(opHome(ctx, 'config_set'), p.key, p.value, { force: p.force === true }) }),
});
