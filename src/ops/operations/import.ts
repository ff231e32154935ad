import { resolve } from 'node:path';
import { z } from 'zod';
import { cliIo } from '../../command-io.js';
import { importFolder } from '../import-folder.js';
import { defineOperation } from './operation.js';
import { withOpProgress } from './op-progress.js';
import { SourceParam } from './slug-param.js';

/** `import`: the owner's sync path, every markdown file under a folder as pages of a source (`brainstream import`). */
export const importOp = defineOperation({
  name: 'import',
  title: 'Import a folder of markdown pages',
  description: 'Import every *.md under a folder as pages of a source; unchanged files write nothing (owner only).',
  params: z.strictObject({
    path: z.string().min(1).describe('The folder, absolute or relative to the working directory.'),
    source_id: SourceParam.optional(),
  }),
  result: z.looseObject({
    source_id: z.string().describe('The source imported into.'),
    added: z.number().int().describe('Pages created.'),
    updated: z.number().int().describe('Pages changed.'),
    unchanged: z.number().int().describe('Files whose page was already the same.'),
    failed: z.array(z.looseObject({ file: z.string(), reason: z.string() })).describe('Files skipped, with why.'),
  }),
  // Importing the same folder again changes nothing.
  effect: { readOnly: false, destructive: true, idempotent: true },
  access: 'owner',
  refusal: 'import is an owner-only command',
  run: (ctx, p) =>
    withOpProgress(ctx.progress, 'import', (onProgress) =>
      importFolder(ctx.brain, resolve(cliIo().cwd ?? process.cwd(), p.path), p.source_id ?? ctx.caller.source, { onProgress }),
    ),
});
