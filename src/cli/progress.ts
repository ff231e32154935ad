import { SingleBar, Presets } from 'cli-progress';
import { cliIo } from './cli-io.js';

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

/** A progress bar on stderr when it is a terminal; silent otherwise (and in commands forwarded to serve). */
export function progressBar(label: string): Progress {
  if (!cliIo().stderrIsTTY || cliIo().forwarded) return { update: () => {}, stop: () => {} };
  const bar = new SingleBar({ format: `${label} [{bar}] {value}/{total}`, stream: process.stderr, clearOnComplete: true }, Presets.shades_classic);
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, done);
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(done);
      }
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
