import type { ProgressReport, ProgressSink } from './operation.js';

const SILENT: ProgressReport = { update: () => {}, stop: () => {} };

/** Runs `fn` with a progress callback reporting to `sink` under `label`; the report ends with it. */
export async function withOpProgress<T>(sink: ProgressSink | undefined, label: string, fn: (onProgress: (done: number, total: number) => void) => Promise<T>): Promise<T> {
  const report = sink ? sink(label) : SILENT;
  try {
    return await fn((done, total) => report.update(done, total));
  } finally {
    report.stop();
  }
}
