import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { seesRemoteWriteNotices } from '../../ops/caller-scope.js';
import { deletePage, getPage, listPages, putPage } from '../../ops/page-ops.js';
import { validateSlug, InvalidSlugError } from '../../pages/import-paths.js';
import { renderPageMarkdown } from '../../pages/render-markdown.js';
import { parseSessionFlag } from '../flags.js';
import { commandContext } from '../globals.js';
import { errLine, out, outJson, outLine } from '../output.js';
import { readPageStdin } from '../read-page-stdin.js';
import { withBrain } from '../with-brain.js';

function slugArg(raw: string): string {
  let slug: string;
  try {
    slug = validateSlug(raw);
  } catch (err) {
    if (err instanceof InvalidSlugError) throw new UsageError(err.message);
    throw err;
  }
  return slug;
}

/**
 * `page list` lists one source when one is chosen — by `--source` or by BRAINSTREAM_SOURCE, the
 * same resolution as every other command — and every readable source otherwise.
 */
const sourceChosen = (flagGiven: boolean): boolean => flagGiven || (process.env.BRAINSTREAM_SOURCE ?? '') !== '';

export function registerPage(program: Command): void {
  const page = program.command('page').description('read and write single pages');

  page
    .command('put')
    .description('replace a page with the markdown on stdin')
    .argument('<slug>', 'the page, e.g. people/alice-example')
    .option('--source <id>', 'the source to act on (default: BRAINSTREAM_SOURCE or "default")')
    .option('--json', 'print the result as JSON')
    .action(async (rawSlug: string, _o, cmd: Command) => {
      const ctx = commandContext(cmd);
      const slug = slugArg(rawSlug);
      const markdown = await readPageStdin();
      const result = await withBrain(ctx.home, (brain) => putPage(brain, ctx.caller, slug, markdown));
      if (ctx.json) outJson(result);
      else outLine(`put ${result.source_id}:${result.slug} (${result.status})`);
    });

  page
    .command('get')
    .description('print a page (records a retrieval)')
    .argument('<slug>', 'the page, e.g. people/alice-example')
    .option('--source <id>', 'the source to act on (default: BRAINSTREAM_SOURCE or "default")')
    .option('--session <id>', 'session id the retrieval is attributed to')
    .option('--json', 'print the result as JSON')
    .action(async (rawSlug: string, opts: { session?: string }, cmd: Command) => {
      const ctx = commandContext(cmd);
      const slug = slugArg(rawSlug);
      const session = parseSessionFlag('--session', opts.session) ?? null;
      const p = await withBrain(ctx.home, (brain) => getPage(brain, ctx.caller, ctx.caller.source, slug, session));
      if (ctx.json) {
        const { source_id, title, type, frontmatter, compiled_truth, timeline } = p;
        outJson({ source_id, slug: p.slug, title, type, frontmatter, compiled_truth, timeline });
      } else out(renderPageMarkdown(p));
      if (seesRemoteWriteNotices(ctx.caller) && p.remote_write) {
        errLine(
          `brainstream: note: a remote caller rewrote this page at ${p.remote_write.at}; what it could not see (${p.remote_write.kept.join(', ')}) was kept. Your next write of the page clears this note.`,
        );
      }
    });

  page
    .command('delete')
    .description('soft-delete a page')
    .argument('<slug>', 'the page, e.g. people/alice-example')
    .option('--source <id>', 'the source to act on (default: BRAINSTREAM_SOURCE or "default")')
    .option('--json', 'print the result as JSON')
    .action(async (rawSlug: string, _o, cmd: Command) => {
      const ctx = commandContext(cmd);
      const slug = slugArg(rawSlug);
      await withBrain(ctx.home, (brain) => deletePage(brain, ctx.caller, ctx.caller.source, slug));
      if (ctx.json) outJson({ source_id: ctx.caller.source, slug, status: 'deleted' });
      else outLine(`deleted ${ctx.caller.source}:${slug}`);
    });

  page
    .command('list')
    .description('list live pages, by source then slug')
    .option('--source <id>', 'the source to act on (default: BRAINSTREAM_SOURCE or "default")')
    .option('--json', 'print the result as JSON')
    .action(async (_o, cmd: Command) => {
      const ctx = commandContext(cmd);
      const pages = await withBrain(ctx.home, (brain) => listPages(brain, ctx.caller, sourceChosen(ctx.sourceGiven) ? ctx.caller.source : null));
      if (ctx.json) {
        outJson({ pages: pages.map((p) => ({ source_id: p.source_id, slug: p.slug, title: p.title, type: p.type })), count: pages.length });
      } else for (const p of pages) outLine(`${p.source_id}:${p.slug}\t${p.title}`);
    });
}
