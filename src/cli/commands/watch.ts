import type { Command } from 'commander';
import { AsyncResource } from 'node:async_hooks';
import { Readable } from 'node:stream';
import { clampWindowTurns } from '../../context/knobs.js';
import { renderHuman, watchJsonLine } from '../../context/render.js';
import { readConfigFile } from '../../config/config-file.js';
import { pushSettings } from '../../config/push-settings.js';
import type { SessionSettings } from '../../domain/event-schemas.js';
import { RANGES } from '../../context/number-ranges.js';
import { decidesAsRemote } from '../../ops/caller-scope.js';
import { lines, streamTurns } from '../../ops/watch-stream.js';
import { lastDecidedTurn } from '../../../streams/volunteer-processor.js';
import type { TurnDecision } from '../../../streams/decide-turns.js';
import { cliIo } from '../../command-io.js';
import { parseRangedFlag, parseSessionFlag } from '../flags.js';
import { commandContext } from '../globals.js';
import { errLine, out } from '../output.js';
import { withStreamHost } from '../with-brain.js';
import type { RunCommand } from '../../serve/command-host.js';

interface Flags {
  json?: boolean;
  windowTurns?: string;
  maxPages?: string;
  minConfidence?: string;
  sessionId?: string;
}

/** The session's knobs travel with its turns, so whichever process decides them applies the same. */
function sessionSettings(home: string, flags: Flags, remote: boolean): SessionSettings {
  const windowFlag = parseRangedFlag('--window-turns', flags.windowTurns, RANGES.windowTurns);
  const maxPages = parseRangedFlag('--max-pages', flags.maxPages, RANGES.maxPages);
  const minConfidence = parseRangedFlag('--min-confidence', flags.minConfidence, RANGES.minConfidence);
  // The configured window follows the knob rule (an old config may hold 100): only flags are refused.
  const settings: SessionSettings = { window_turns: windowFlag ?? clampWindowTurns(pushSettings(readConfigFile(home)).windowTurns) };
  if (maxPages !== undefined) settings.max_pages = maxPages;
  if (minConfidence !== undefined) settings.min_confidence = minConfidence;
  if (remote) settings.remote = true;
  // An environment override of the lexical arms belongs to this session (config is re-read per turn).
  if ((process.env.BRAINSTREAM_RETRIEVAL_REFLEX_LEXICAL_ARMS ?? '').trim() !== '') settings.lexical_arms = pushSettings({}).lexicalArms;
  return settings;
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
          // A session id used before continues where it stopped: its turn numbers go on.
          const lastTurn = await lastDecidedTurn(host.brain.db, sessionId);
          errLine(`[watch] session ${sessionId} ready`);
          // A batch's pages are written at once: one write (one frame, forwarded) per batch, not per line.
          let pending = '';
          await streamTurns(host.turns, lines(io.stdin ?? Readable.from([]), stop.signal), {
            sessionId,
            sourceId: ctx.caller.source,
            settings,
            lastTurn,
            onDecision: (d: TurnDecision) => {
              if (d.volunteered.length === 0) return;
              if (ctx.json) for (const p of d.volunteered) pending += `${JSON.stringify(watchJsonLine(p, d.turn, sessionId))}\n`;
              else pending += renderHuman(d.volunteered);
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
