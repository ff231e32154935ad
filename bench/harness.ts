import { spawnSync } from 'node:child_process';
import { cpus, totalmem, platform, release } from 'node:os';

export interface Measurement {
  name: string;
  /** Median of the timed runs, in the unit given. */
  median: number;
  unit: string;
  runs: number[];
  extra?: Record<string, string | number>;
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export function machine(): string {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model ?? 'unknown cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${platform()} ${release()}, Node ${process.version}`;
}

export const fmt = (n: number, digits = 2): string => (Number.isInteger(n) ? String(n) : n.toFixed(digits));

/** Peak resident memory so far, in MiB (process-wide). */
export const peakRssMiB = (): number => process.resourceUsage().maxRSS / 1024;

/** The machine's floor for any CLI call, measured now: a Node process that does nothing, in ms (wall). */
export function bareNodeMs(): number {
  const t0 = performance.now();
  spawnSync(process.execPath, ['-e', ''], { input: '' });
  return performance.now() - t0;
}
