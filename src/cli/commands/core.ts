import type { Command } from 'commander';
import { coreRef } from '../../core-memory/core-ref.js';
import { UsageError } from '../../errors.js';
import { registerDoctorCheck } from '../../doctor/doctor-checks.js';
import { coreAdd, coreRemove, type CoreMarkResult } from '../../ops/core-mark.js';
import type { CoreInitResult } from '../../ops/core-init.js';
import { coreMemoryCheck } from '../../doctor/core-memory-doctor.js';
import { coreDiff } from '../../ops/core-review.js';
import { coreSuggestions } from '../../ops/core-suggest.js';
import { coreList, coreShow, coreStatus, coreStatusLines } from '../../ops/core-views.js';
import { InvalidSlugError, validateSlug } from '../../pages/import-paths.js';
import { parseIntegerFlag } from '../flags.js';
import { commandContext, type CommandContext } from '../globals.js';
import { errLine, out, outJson, outLine, setExitCode } from '../output.js';
import { runCommandOperation } from '../run-operation.js';
import { withBrain } from '../with-brain.js';

/** A slug argument: lower-cased; unusable slugs are usage errors (exit 2). */
export function slugArg(raw: string): string {
  try {
    return validateSlug(raw);
  } catch (err) {
    if (err instanceof InvalidSlugError) throw new UsageError(err.message);
    throw err;
  }
}

interface SuggestApplied {
  applied: CoreMarkResult[];
  refused: { source_id: string; slug: string; error: string; message: string } | null;
}

const usageText = (r: CoreMarkResult): string => `priority ${r.priority}, ${r.chars} chars; core ${r.usage.used}/${r.usage.max}`;

/** The lines `core add` / `core remove` print; warnings (not rendered, file not edited) on stderr. */
function reportMark(ctx: CommandContext, r: CoreMarkResult): void {
  const ref = `${r.source_id}:${r.slug}`;
  if (ctx.json) outJson(r);
  else if (r.status === 'added') outLine(`core: added ${ref} (${usageText(r)})`);
  else if (r.status === 'removed') outLine(`core: removed ${ref} (core ${r.usage.used}/${r.usage.max})`);
  else outLine(`core: unchanged ${ref} (${usageText(r)})`);
  if (r.withheld !== null && r.status !== 'removed') {
    errLine(`warning: ${ref} is ${r.withheld}, so it is marked core but will not render`);
  }
  if (r.file && !r.file.written) errLine(`warning: could not update ${r.file.path}: ${r.file.reason ?? 'unknown reason'}`);
}

export function registerCore(program: Command): void {
  // `doctor` lists the core_memory check wherever the CLI runs (directly or inside serve).
  registerDoctorCheck(coreMemoryCheck);
  const core = program.command('core').description('core memory: the budgeted pages every session receives');

  core
    .command('list')
    .description('core pages in brain-wide order, with their rendered size')
    .option('--source <id>', 'the source to act on (default: BRAINSTREAM_SOURCE or "default")')
    .option('--json', 'print the result as JSON')
    .action(async (_o, cmd: Command) => {
      const ctx = commandContext(cmd);
      const r = await withBrain(ctx.home, (brain) => coreList(brain, ctx.caller));
      if (ctx.json) outJson(r.json);
      else for (const line of r.lines) outLine(line);
    });

  core
    .command('status')
    .description('usage against the budget, revision, pending remote edits, largest pages')
    .option('--source <id>', 'the source to act on (default: BRAINSTREAM_SOURCE or "default")')
    .option('--json', 'print the result as JSON')
    .action(async (_o, cmd: Command) => {
      const ctx = commandContext(cmd);
      const s = await withBrain(ctx.home, (brain) => coreStatus(brain, ctx.caller));
      if (ctx.json) outJson(s);
      else for (const line of coreStatusLines(s)) outLine(line);
    });

  core
    .command('add')
    .description('mark a page core (guarded by the budget)')
    .argument('<slug>', 'the page, e.g. people/alice-example')
    .option('--priority <n>', 'core_priority: lower renders first (default: keep the stored one, else 100)')
    .option('--source <id>', 'the source to act on (default: BRAINSTREAM_SOURCE or "default")')
    .option('--json', 'print the result as JSON')
    .action(async (raw: string, opts: { priority?: string }, cmd: Command) => {
      const ctx = commandContext(cmd);
      const slug = slugArg(raw);
      const priority = parseIntegerFlag('--priority', opts.priority);
      reportMark(ctx, await withBrain(ctx.home, (brain) => coreAdd(brain, ctx.caller, ctx.caller.source, slug, priority)));
    });

  core
    .command('remove')
    .description('unmark a core page (always allowed; also on a deleted page)')
    .argument('<slug>', 'the page, e.g. people/alice-example')
    .option('--source <id>', 'the source to act on (default: BRAINSTREAM_SOURCE or "default")')
    .option('--json', 'print the result as JSON')
    .action(async (raw: string, _o, cmd: Command) => {
      const ctx = commandContext(cmd);
      const slug = slugArg(raw);
      reportMark(ctx, await withBrain(ctx.home, (brain) => coreRemove(brain, ctx.caller, ctx.caller.source, slug)));
    });

  core
    .command('show')
    .description('print exactly the core block a session receives')
    .option('--source <id>', 'the source to act on (default: BRAINSTREAM_SOURCE or "default")')
    .action(async (_o, cmd: Command) => {
      const ctx = commandContext(cmd);
      const r = await withBrain(ctx.home, (brain) => coreShow(brain, ctx.caller));
      if (r.text !== '') out(`${r.text}\n`);
      if (!r.enabled) errLine('note: memory.core.enabled is false — sessions receive no core');
    });

  core
    .command('suggest')
    .description('read-only candidates for core; --apply marks them')
    .option('--apply', 'mark the candidates in order, stopping at the first refusal')
    .option('--source <id>', 'the source to act on (default: BRAINSTREAM_SOURCE or "default")')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { apply?: boolean }, cmd: Command) => {
      const ctx = commandContext(cmd);
      if (opts.apply) {
        const result = await runCommandOperation<SuggestApplied>(ctx, 'core_suggest_apply', {});
        if (ctx.json) outJson(result);
        else for (const r of result.applied) outLine(`core: added ${r.source_id}:${r.slug} (${usageText(r)})`);
        if (result.refused) {
          errLine(`brainstream: ${result.refused.error}: ${result.refused.source_id}:${result.refused.slug}: ${result.refused.message}`);
          setExitCode(1);
        }
        return;
      }
      const suggestions = await withBrain(ctx.home, (brain) => coreSuggestions(brain, ctx.caller));
      if (ctx.json) outJson({ suggestions });
      else for (const s of suggestions) outLine(`${s.score}  ${s.source_id}:${s.slug}  +${s.chars} chars`);
    });

  core
    .command('init')
    .description('create core/profile (a starter profile page) and mark it core')
    .option('--source <id>', 'the source to act on (default: BRAINSTREAM_SOURCE or "default")')
    .option('--json', 'print the result as JSON')
    .action(async (_o, cmd: Command) => {
      const ctx = commandContext(cmd);
      const r = await runCommandOperation<CoreInitResult & { enabled: boolean }>(ctx, 'core_init', { source_id: ctx.caller.source });
      const enabled = r.enabled;
      if (ctx.json) outJson(r);
      else if (r.status === 'already_initialised') outLine('core: already initialised');
      else outLine(`core: initialised ${r.source_id}:${r.slug} (priority 10, ${r.chars} chars; core ${r.usage.used}/${r.usage.max})`);
      if (!enabled && !ctx.json) outLine('hint: core memory is off; turn it on with: brainstream config set memory.core.enabled true');
    });

  core
    .command('ack')
    .description('accept remote edits of a core page up to a revision')
    .argument('<slug>', 'the page, e.g. people/alice-example')
    .requiredOption('--revision <token>', 'the revision named by the notice (rN)')
    .option('--source <id>', 'the source to act on (default: BRAINSTREAM_SOURCE or "default")')
    .option('--json', 'print the result as JSON')
    .action(async (raw: string, opts: { revision: string }, cmd: Command) => {
      const ctx = commandContext(cmd);
      const slug = slugArg(raw);
      const r = await runCommandOperation<{ source_id: string; slug: string; revision: string; pending: string | null }>(ctx, 'core_ack', {
        slug,
        revision: opts.revision,
        source_id: ctx.caller.source,
      });
      if (ctx.json) outJson(r);
      else outLine(`core: acknowledged ${coreRef(r.source_id, r.slug)} through ${r.revision}${r.pending ? ` (still pending: ${r.pending})` : ''}`);
    });

  core
    .command('diff')
    .description('what remote edits changed in a core page since it was last reviewed')
    .argument('<slug>', 'the page, e.g. people/alice-example')
    .option('--source <id>', 'the source to act on (default: BRAINSTREAM_SOURCE or "default")')
    .action(async (raw: string, _o, cmd: Command) => {
      const ctx = commandContext(cmd);
      const slug = slugArg(raw);
      const r = await withBrain(ctx.home, (brain) => coreDiff(brain, ctx.caller, ctx.caller.source, slug));
      outLine(r.text);
    });
}
