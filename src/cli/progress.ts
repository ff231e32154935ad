import { SingleBar, Presets } from 'cli-progress';
import { cliIo, type ProgressFrame } from '../command-io.js';

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

const SILENT: Progress = { update: () => {}, stop: () => {} };

/** How often a forwarded command sends its progress to the client: often enough to look live. */
const FRAME_INTERVAL_MS = 100;

/**
 * A progress bar for long work (import, replay, rebuild, purge): on stderr when it is a terminal,
 * drawn by the client's own terminal when the command runs inside serve, and nothing at all on a
 * pipe or a file, so scripts read only the result.
 */
export function progressBar(label: string): Progress {
  const io = cliIo();
  if (io.forwarded) return io.progress ? forwardedProgress(label, io.progress) : SILENT;
  return io.stderrIsTTY ? terminalBar(label, process.stderr) : SILENT;
}

/** Count, percentage, rate and time left, redrawn in place. */
export function terminalBar(label: string, stream: NodeJS.WritableStream): Progress {
  const bar = new SingleBar(
    { format: `${label} [{bar}] {percentage}% {value}/{total} · {rate}/s · ETA {eta_formatted}`, stream, clearOnComplete: true, etaBuffer: 50 },
    Presets.shades_classic,
  );
  let startedAt: number | null = null;
  const rate = (done: number): string => {
    const seconds = (performance.now() - startedAt!) / 1000;
    return seconds > 0 ? Math.round(done / seconds).toLocaleString('en') : '–';
  };
  return {
    update(done, total) {
      if (startedAt === null) {
        startedAt = performance.now();
        bar.start(total, done, { rate: '–' });
      } else {
        bar.setTotal(total);
        bar.update(done, { rate: rate(done) });
      }
    },
    stop() {
      if (startedAt !== null) bar.stop();
    },
  };
}

/** Progress of a command run inside serve, sent to the client at most every 100 ms (and at the end). */
function forwardedProgress(label: string, send: (frame: ProgressFrame | null) => void): Progress {
  let sentAt = -Infinity;
  let started = false;
  return {
    update(done, total) {
      const now = performance.now();
      if (done < total && now - sentAt < FRAME_INTERVAL_MS) return;
      sentAt = now;
      started = true;
      send({ label, done, total });
    },
    stop() {
      if (started) send(null);
    },
  };
}
