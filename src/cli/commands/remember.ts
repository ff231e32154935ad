import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { RememberParamsError } from '../../core-memory/errors.js';
import type { RememberBatchResponse } from '../../core-memory/remember-replay.js';
import { remember, type RememberResponse } from '../../ops/remember.js';
import { cliIo } from '../../command-io.js';
import { commandContext } from '../globals.js';
import { outJson, outLine, setExitCode } from '../output.js';
import { readStdin } from '../read-stdin.js';
import { withBrain } from '../with-brain.js';

interface Flags {
  itemsFile?: string;
  requestId?: string;
  provenance?: string;
  entity?: string;
  kind?: string;
  ttl?: string;
  visibility?: string;
  supersedes?: string;
}

/** FILE (`-` = stdin) holds a JSON array of items or `{"items": […]}`. */
async function readItems(file: string): Promise<unknown> {
  let text: string;
  try {
    text = file === '-' ? await readStdin() : readFileSync(resolve(cliIo().cwd ?? process.cwd(), file), 'utf8');
  } catch (err) {
    throw new RememberParamsError('invalid_params', `cannot read --items-file ${file}: ${(err as Error).message}`, { field: 'items' });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new RememberParamsError('invalid_params', `--items-file ${file} is not JSON (${(err as Error).message}); it must hold an array of items or {"items": [...]}`, {
      field: 'items',
    });
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'items' in value) return (value as { items: unknown }).items;
  return value;
}

const isBatch = (r: RememberResponse): r is RememberBatchResponse => 'items' in r;

function printHuman(r: RememberResponse): void {
  if (!isBatch(r)) {
    outLine(`${r.status} ${r.id} ${r.status_text}`);
    return;
  }
  // One line per item: `#<index> <status> <id> <status_text|error message>`; a failed item has no id, so `-`.
  for (const item of r.items) {
    const text = item.status === 'error' ? (item.error?.message ?? '') : (item.status_text ?? '');
    outLine(`#${item.index} ${item.status} ${item.id ?? '-'} ${text}`);
  }
  const ok = r.items.filter((i) => i.status !== 'error').length;
  outLine(`remembered ${ok}/${r.items.length} item(s)${r.partial ? ' (partial)' : ''}`);
}

export function registerRemember(program: Command): void {
  program
    .command('remember')
    .description('save a fact (FACT --provenance TEXT), or up to 20 with --items-file FILE|-')
    .argument('[fact]', 'the fact (single form)')
    .option('--provenance <text>', 'where the fact comes from (required)')
    .option('--entity <slug>', 'the page the fact is about (in your source)')
    .option('--kind <kind>', 'event, preference, commitment, belief or fact (default)')
    .option('--ttl <ttl>', 'expiry: 30d, 12h, "30 days" or an ISO date (default: memory.capture.ttl)')
    .option('--visibility <v>', 'world or private (default: memory.capture.visibility)')
    .option('--supersedes <id>', 'id of the fact this one replaces')
    .option('--items-file <file>', 'JSON array of items, or {"items": [...]}; - reads stdin')
    .option('--request-id <id>', 'replaying the same id returns the same outcomes and writes nothing')
    .option('--source <id>', 'the source to act on (default: BRAINSTREAM_SOURCE or "default")')
    .option('--json', 'print the result as JSON')
    .action(async (fact: string | undefined, flags: Flags, cmd: Command) => {
      const ctx = commandContext(cmd);
      const params: Record<string, unknown> =
        flags.itemsFile === undefined
          ? { fact, provenance: flags.provenance, entity: flags.entity, kind: flags.kind, ttl: flags.ttl, visibility: flags.visibility, supersedes: flags.supersedes }
          : { ...(fact === undefined ? {} : { fact }), items: await readItems(flags.itemsFile) };
      if (flags.requestId !== undefined) params.request_id = flags.requestId;
      const response = await withBrain(ctx.home, (brain) => remember(brain, ctx.caller, params));
      if (ctx.json) outJson(response);
      else printHuman(response);
      if (isBatch(response) && response.partial) setExitCode(1);
    });
}
