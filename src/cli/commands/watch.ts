import type { Command } from 'commander';
import { AsyncResource } from 'node:async_hooks';
import { Readable } from 'node:stream';
import { watchOutput } from '../../context/render.js';
import { decidesAsRemote } from '../../ops/caller-scope.js';
import { lines, streamTurns } from '../../ops/watch-stream.js';
import { lastLoggedTurn } from '../../../streams/volunteer-processor.js';
import type { TurnDecision } from '../../../streams/decide-turns.js';
import { cliIo } from '../../command-io.js';
import { parseSessionFlag } from '../flags.js';
import { sessionSettings, WATCH_CONTINUED_ENV, type WatchKnobFlags } from '../watch-settings.js';
import { commandContext } from '../globals.js';
import { errLine, out } from '../output.js';
import { withStreamHost } from '../with-brain.js';
import type { RunCommand } from '../../serve/command-host.js';

interface Flags extends WatchKnobFlags {
  json?: boolean;
  sessionId?: string;
}

export function registerWatch(program: Command, runCommand: RunCommand): void {
  program
    .command('watch')
    .description('streaming: one turn per stdin line; volunteered pages print as the transcript flows')
    .option('--json', 'one JSON object per volunteered page per line')
    .option('--window-turns <n>', 'rolling window size (1..64, default from config: 4)')
    .option('--max-pages <n>', 'cap per turn (1..5, default 3)')
    .option('--min-confidence <x>', 'gate (0..1, default 0.7)')
    .option('--source <id>', 'the source to act on (default: BRAINSTREAM_SOURCE or "default")')
    .option('--session-id <id>', 'session id (default watch-<pid>-<time>)')
    .action(async (flags: Flags, cmd: Command) => {
      const ctx = commandContext(cmd);
      const settings = sessionSettings(ctx.home, flags, decidesAsRemote(ctx.caller));
      const io = cliIo();
      const sessionId = parseSessionFlag('--session-id', flags.sessionId) ?? `watch-${io.pid ?? process.pid}-${Date.now().toString(36)}`;
      // Forwarded, the client turns its Ctrl-C into the end of stdin; direct, we do it here.
      const stop = new AbortController();
      const onSignal = (): void => stop.abort();
      if (!io.forwarded) {
        process.once('SIGINT', onSignal);
        process.once('SIGTERM', onSignal);
      }
      try {
        await withStreamHost(ctx.home, runCommand, async (host) => {
          // A session id used before continues where it stopped: its turn numbers go on (after
          // the turns it handed over from the cold path too, decided or not yet).
          const lastTurn = await lastLoggedTurn(host.brain.db, sessionId);
          // A session that began on the cold path (before this serve answered) said so already.
          if ((io.env ?? process.env)[WATCH_CONTINUED_ENV] !== sessionId) errLine(`[watch] session ${sessionId} ready`);
          // A batch's pages are written at once: one write (one frame, forwarded) per batch, not per line.
          let pending = '';
          await streamTurns(host.turns, lines(io.stdin ?? Readable.from([]), stop.signal), {
            sessionId,
            sourceId: ctx.caller.source,
            settings,
            lastTurn,
            onDecision: (d: TurnDecision) => {
              pending += watchOutput(d.volunteered, d.turn, sessionId, ctx.json);
            },
            // Bound to this command: decisions may be handed over from another context (serve's).
            afterBatch: AsyncResource.bind(() => {
              if (pending === '') return;
              const text = pending;
              pending = '';
              out(text);
            }),
          });
        });
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });
}
