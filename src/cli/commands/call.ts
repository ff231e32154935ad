import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { callCaller } from '../../ops/caller-scope.js';
import { errorEnvelope, runHostOperation } from '../../ops/registry.js';
import { commandContext } from '../globals.js';
import { errLine, outJson, setExitCode } from '../output.js';
import { cliHostContext } from '../run-operation.js';

function parseParams(raw: string | undefined): unknown {
  if (raw === undefined) return {};
  try {
    const value = JSON.parse(raw) as unknown;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {
    // reported below
  }
  throw new UsageError(`--params expects a JSON object, got ${JSON.stringify(raw.length > 80 ? `${raw.slice(0, 80)}…` : raw)}`);
}

export function registerCall(program: Command): void {
  program
    .command('call')
    .description('run a named operation (volunteer_context, get_page, put_page, delete_page, list_pages, context_pack, core_status, remember, forget, …) as the current caller; prints its JSON result')
    .argument('<op>', 'operation name')
    .option('--params <json>', 'operation parameters as a JSON object')
    .option('--source <id>', 'the caller’s (bound) source')
    .option('--identity <id>', 'a remote caller’s identity (request replay key); default cli-remote')
    .action(async (op: string, opts: { params?: string; identity?: string }, cmd: Command) => {
      const ctx = commandContext(cmd);
      const params = parseParams(opts.params);
      try {
        const result = await runHostOperation(cliHostContext(ctx, callCaller(ctx.caller, opts.identity)), op, params);
        outJson(result);
      } catch (err) {
        const envelope = errorEnvelope(err);
        outJson(envelope);
        errLine(`brainstream: ${envelope.error}: ${envelope.message.split('\n')[0]}`);
        setExitCode(1);
      }
    });
}
