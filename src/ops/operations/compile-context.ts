import { z } from 'zod';
import { cliIo } from '../../command-io.js';
import { COMPILE_TARGETS, compileContext } from '../compile-context.js';
import { defineOperation } from './operation.js';
import { opHome } from './op-settings.js';

/** `compile_context`: the owner keeps core memory in a static instruction file (`brainstream compile-context`). */
export const compileContextOp = defineOperation({
  name: 'compile_context',
  title: 'Keep core memory in an instruction file',
  description: 'Write the owner session block into the managed block of a static instruction file (never a git-tracked one), or remove it (owner only).',
  params: z.strictObject({
    target: z.enum(COMPILE_TARGETS).describe(`The instruction file: ${COMPILE_TARGETS.join(', ')}.`),
    mode: z.enum(['include', 'remove']).describe('Write the core block (include) or remove it (remove).'),
    out: z.string().optional().describe('Write this file instead of the target’s default (relative to the working directory).'),
  }),
  result: z.looseObject({
    path: z.string().describe('The instruction file.'),
    status: z.enum(['written', 'unchanged', 'removed']).describe('What the run did to it.'),
    revision: z.string().nullable().describe('The core revision written, or null.'),
    chars: z.number().int().describe('Characters of core written.'),
    excluded_in: z.string().nullable().describe('The .git/info/exclude the file was added to, or null.'),
    core_enabled: z.boolean().describe('memory.core.enabled: while false no core is written.'),
  }),
  effect: { readOnly: false, destructive: true, idempotent: true },
  access: 'owner',
  refusal: 'compile-context is an owner-only command; run it on the brain host',
  run(ctx, p) {
    const io = cliIo();
    return compileContext(ctx.brain, ctx.caller, opHome(ctx, 'compile_context'), {
      target: p.target,
      mode: p.mode,
      out: p.out,
      cwd: io.cwd ?? process.cwd(),
      env: io.env ?? process.env,
    });
  },
});
