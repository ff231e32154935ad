import type { Command } from 'commander';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderHuman } from '../../context/render.js';
import { demoPaths, runDemo } from '../../ops/demo.js';
import { outLine } from '../output.js';
import { withBrain } from '../with-brain.js';

/** The README's first command: a whole push-context session on an example brain, in a temporary home. */
export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('import an example brain into a temporary home and stream an example conversation through watch')
    .option('--keep', 'keep the temporary home and print its path')
    .action(async (opts: { keep?: boolean }) => {
      const home = mkdtempSync(join(tmpdir(), 'brainstream-demo-'));
      try {
        const { imported, turns } = await withBrain(home, runDemo);
        outLine(`Imported ${imported.added} example pages from ${demoPaths().brain}`);
        outLine(`Streaming ${turns.length} turns through watch (window 4, gate 0.7, at most 3 pages a turn):\n`);
        for (const t of turns) {
          outLine(`turn ${t.turn} · ${t.role}: ${t.text}`);
          const pages = t.decision?.volunteered ?? [];
          if (pages.length === 0) outLine('    (nothing volunteered)');
          else for (const line of renderHuman(pages).trimEnd().split('\n')) outLine(line.startsWith('    ') ? `    ${line}` : `  → ${line}`);
          outLine('');
        }
        // The last line names only what still exists once the command returns.
        if (opts.keep) {
          outLine(`Demo brain kept at ${home}. Every volunteered page was logged as an event;`);
          outLine(`\`brainstream --home ${home} volunteer-context --stats\` reads them back.`);
        } else {
          outLine('The demo home is deleted now; `brainstream demo --keep` keeps it, to try other commands on it with --home.');
        }
      } finally {
        if (!opts.keep) rmSync(home, { recursive: true, force: true });
      }
    });
}
