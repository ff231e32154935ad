import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { COMPILE_TARGETS, type CompileResult } from '../../ops/compile-context.js';
import { commandContext } from '../globals.js';
import { errLine, outJson, outLine } from '../output.js';
import { runCommandOperation } from '../run-operation.js';

interface Flags {
  target?: string;
  includeCore?: boolean;
  removeCore?: boolean;
  out?: string;
}

export function registerCompileContext(program: Command): void {
  program
    .command('compile-context')
    .description('keep core memory in a static instruction file (never a git-tracked one)')
    .requiredOption('--target <target>', COMPILE_TARGETS.join(' | '))
    .option('--include-core', 'write the owner session block for --source into the managed block')
    .option('--remove-core', 'remove the managed block')
    .option('--out <path>', 'write this file instead of the target’s default')
    .option('--source <id>', 'the source to act on (default: BRAINSTREAM_SOURCE or "default")')
    .option('--json', 'print the result as JSON')
    .action(async (flags: Flags, cmd: Command) => {
      const ctx = commandContext(cmd);
      if (!(COMPILE_TARGETS as readonly string[]).includes(flags.target ?? '')) {
        throw new UsageError(`--target expects one of ${COMPILE_TARGETS.join(', ')}, got ${JSON.stringify(flags.target)}`);
      }
      if (flags.includeCore === flags.removeCore) throw new UsageError('compile-context needs exactly one of --include-core or --remove-core');
      const r = await runCommandOperation<CompileResult>(ctx, 'compile_context', {
        target: flags.target,
        mode: flags.includeCore ? 'include' : 'remove',
        ...(flags.out !== undefined ? { out: flags.out } : {}),
      });
      if (ctx.json) outJson(r);
      else if (r.status === 'removed') outLine(`compile-context: removed core from ${r.path}`);
      else if (r.revision === null) outLine(`compile-context: no core block in ${r.path}`);
      else outLine(`compile-context: ${r.status === 'written' ? 'wrote' : 'unchanged'} ${r.path} (core=${r.revision}, ${r.chars} chars)`);
      // Nothing is delivered while core is off, so --include-core wrote no core.
      if (flags.includeCore && !r.core_enabled) {
        errLine('note: memory.core.enabled is false, so no core was written; turn it on with: brainstream config set memory.core.enabled true');
      }
    });
}
