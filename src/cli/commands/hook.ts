import type { Command } from 'commander';
import { HOOK_EVENTS, harnessOf } from '../../hooks/hook-argv.js';
import { runHook } from '../../hooks/hook-main.js';
import { setExitCode } from '../output.js';

/**
 * `brainstream hook <event>`: normally answered by the fast path before this program loads;
 * registered here for help text and for any invocation the fast path leaves to commander.
 */
export function registerHook(program: Command): void {
  program
    .command('hook')
    .description(`harness hook events (${HOOK_EVENTS.join(', ')}); JSON on stdin, context on stdout; always fails open`)
    .argument('[event]', HOOK_EVENTS.join(' | '))
    .option('--harness <name>', 'claude-code (default), codex or opencode')
    .action(async (event: string | undefined, opts: { harness?: string }, cmd: Command) => {
      const home = cmd.optsWithGlobals<{ home?: string }>().home;
      const known = (HOOK_EVENTS as readonly string[]).includes(event ?? '');
      const code = await runHook({ home, event: known ? (event as (typeof HOOK_EVENTS)[number]) : null, rawEvent: event, harness: harnessOf(opts.harness) });
      setExitCode(code);
    });
}
