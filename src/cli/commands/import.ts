import type { Command } from 'commander';
import { resolve } from 'node:path';
import type { ImportSummary } from '../../ops/import-folder.js';
import { commandContext } from '../globals.js';
import { errLine, outJson, outLine, setExitCode } from '../output.js';
import { runCommandOperation } from '../run-operation.js';

export function registerImport(program: Command): void {
  program
    .command('import')
    .description('import every *.md under PATH as pages of a source (the owner’s sync path)')
    .argument('<path>', 'folder of markdown files')
    .option('--source <id>', 'source to import into (default: BRAINSTREAM_SOURCE or "default")')
    .option('--json', 'print the summary as JSON')
    .action(async (path: string, _opts, cmd: Command) => {
      const ctx = commandContext(cmd);
      const summary = await runCommandOperation<ImportSummary>(ctx, 'import', { path: resolve(path), source_id: ctx.caller.source });
      for (const f of summary.failed) errLine(`brainstream: import: ${f.file}: ${f.reason}`);
      if (ctx.json) outJson({ ...summary, failed: summary.failed.length, failures: summary.failed });
      else
        outLine(
          `import: ${summary.added} added, ${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.failed.length} failed (source ${summary.source_id})`,
        );
      if (summary.failed.length > 0) setExitCode(1);
    });
}
