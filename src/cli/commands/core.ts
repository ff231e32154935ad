import type { Command } from 'commander';
import { coreRef } from '../../core-memory/core-ref.js';
import { BrainstreamError, UsageError } from '../../errors.js';
import { registerDoctorCheck } from '../../doctor/doctor-checks.js';
import { coreAdd, coreRemove, type CoreMarkResult } from '../../ops/core-mark.js';
import { coreInit } from '../../ops/core-init.js';
import { coreMemoryCheck } from '../../doctor/core-memory-doctor.js';
import { coreAck, coreDiff } from '../../ops/core-review.js';
import { applySuggestions, coreSuggestions } from '../../ops/core-suggest.js';
import { coreList, coreShow, coreStatus, coreStatusLines } from '../../ops/core-views.js';
import { InvalidSlugError, validateSlug } from '../../pages/import-paths.js';
import { parseIntegerFlag } from '../flags.js';
import { commandContext, type CommandContext } from '../globals.js';
import { errLine, out, outJson, outLine, setExitCode } from '../output.js';
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

function ownerOnly(ctx: CommandContext, what: string): void {
  if (ctx.caller.kind !== 'owner') throw new BrainstreamError('owner_only', `${what} is an owner-only command; ask the user to run it on the brain host`);
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
      if (opts.apply) ownerOnly(ctx, 'core suggest --apply');
      await withBrain(ctx.home, async (brain) => {
        const suggestions = await coreSuggestions(brain, ctx.caller);
        if (!opts.apply) {
          if (ctx.json) outJson({ suggestions });
          else for (const s of suggestions) outLine(`${s.score}  ${s.source_id}:${s.slug}  +${s.chars} chars`);
          return;
        }
        const result = await applySuggestions(brain, ctx.caller, suggestions);
        if (ctx.json) outJson({ applied: result.applied, refused: result.refused && { source_id: result.refused.suggestion.source_id, slug: result.refused.suggestion.slug, error: result.refused.error.code, message: result.refused.error.message } });
        else for (const r of result.applied) outLine(`core: added ${r.source_id}:${r.slug} (${usageText(r)})`);
        if (result.refused) {
          const s = result.refused.suggestion;
          errLine(`brainstream: ${result.refused.error.code}: ${s.source_id}:${s.slug}: ${result.refused.error.message}`);
          setExitCode(1);
        }
      });
    });

  core
    .command('init')
    .description('create core/profile (a starter profile page) and mark it core')
    .option('--source <id>', 'the source to act on (default: BRAINSTREAM_SOURCE or "default")')
    .option('--json', 'print the result as JSON')
    .action(async (_o, cmd: Command) => {
      const ctx = commandContext(cmd);
      ownerOnly(ctx, 'core init');
      const { r, enabled } = await withBrain(ctx.home, async (brain) => ({
        r: await coreInit(brain, ctx.caller, ctx.caller.source),
        enabled: (await coreStatus(brain, ctx.caller)).enabled,
      }));
      if (ctx.json) outJson({ ...r, enabled });
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
      ownerOnly(ctx, 'core ack');
      const slug = slugArg(raw);
      const r = await withBrain(ctx.home, (brain) => coreAck(brain, ctx.caller, ctx.caller.source, slug, opts.revision));
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
