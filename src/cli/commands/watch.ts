import type { Command } from 'commander';
import { clampWindowTurns, normalizeMaxPages, normalizeMinConfidence } from '../../context/knobs.js';
import { renderHuman, watchJsonLine } from '../../context/render.js';
import { readConfigFile } from '../../config/config-file.js';
import { pushSettings } from '../../config/push-settings.js';
import type { SessionSettings } from '../../domain/event-schemas.js';
import { lines, runWatch } from '../../ops/watch-stream.js';
import { parseNumberFlag } from '../flags.js';
import { commandContext } from '../globals.js';
import { errLine, out, outJson } from '../output.js';
import { withBrain } from '../with-brain.js';

interface Flags {
  json?: boolean;
  windowTurns?: string;
  maxPages?: string;
  minConfidence?: string;
  sessionId?: string;
}

export function registerWatch(program: Command): void {
  program
    .command('watch')
    .description('streaming: one turn per stdin line; volunteered pages print as the transcript flows')
    .option('--json', 'one JSON object per volunteered page per line')
    .option('--window-turns <n>', 'rolling window size (1..64, default from config: 4)')
    .option('--max-pages <n>', 'cap per turn (default 3, at most 5)')
    .option('--min-confidence <x>', 'gate (0..1, default 0.7)')
    .option('--source <id>')
    .option('--session-id <id>', 'session id (default watch-<pid>-<time>)')
    .action(async (flags: Flags, cmd: Command) => {
      const ctx = commandContext(cmd);
      const windowFlag = parseNumberFlag('--window-turns', flags.windowTurns);
      const maxPages = parseNumberFlag('--max-pages', flags.maxPages);
      const minConfidence = parseNumberFlag('--min-confidence', flags.minConfidence);
      const sessionId = (flags.sessionId ?? `watch-${process.pid}-${Date.now().toString(36)}`).slice(0, 256);
      const initial = pushSettings(readConfigFile(ctx.home));
      const settings: SessionSettings = {};
      settings.window_turns = clampWindowTurns(windowFlag ?? initial.windowTurns);
      if (maxPages !== undefined) settings.max_pages = normalizeMaxPages(maxPages);
      if (minConfidence !== undefined) settings.min_confidence = normalizeMinConfidence(minConfidence);
      const stop = new AbortController();
      const onSignal = (): void => stop.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        await withBrain(ctx.home, async (brain) => {
          errLine(`[watch] session ${sessionId} ready`);
          await runWatch(brain, lines(process.stdin, stop.signal), {
            sessionId,
            sourceId: ctx.caller.source,
            settings,
            topology: () => {
              const now = pushSettings(readConfigFile(ctx.home));
              return {
                windowTurns: settings.window_turns!,
                minConfidence: settings.min_confidence ?? 0.7,
                maxPages: settings.max_pages ?? 3,
                lexicalArms: now.lexicalArms,
                gazetteer: now.gazetteer,
                remote: ctx.caller.kind === 'remote',
              };
            },
            onDecision: (d) => {
              if (d.volunteered.length === 0) return;
              if (ctx.json) for (const p of d.volunteered) outJson(watchJsonLine(p, d.turn, sessionId));
              else out(renderHuman(d.volunteered));
            },
          });
        });
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });
}
