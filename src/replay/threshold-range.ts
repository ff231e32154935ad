import { UsageError } from '../errors.js';

/** More thresholds than this is a typo (a step of 0.0001), not a sweep. */
const MAX_THRESHOLDS = 201;

/**
 * `--min-confidence` of `replay`: `START:END:STEP` (inclusive; `0.6:0.9:0.05` → 0.6, 0.65, …, 0.9)
 * or one value. Values are rounded to 10 decimals so 0.6 + 2 × 0.05 is exactly 0.7, the gate a
 * live session used. Every value must lie in [0, 1]: outside it the knob rules would silently
 * replace it by 0.7, which is never what a sweep means.
 */
export function parseThresholdRange(flag: string, text: string): number[] {
  const parts = text.split(':').map((p) => p.trim());
  if (parts.length !== 1 && parts.length !== 3) {
    throw new UsageError(`${flag} expects START:END:STEP or one number, got ${JSON.stringify(text)}`);
  }
  const nums = parts.map((p) => (p === '' ? Number.NaN : Number(p)));
  nums.forEach((n, i) => {
    if (!Number.isFinite(n)) throw new UsageError(`${flag} expects numbers, got ${JSON.stringify(parts[i])} in ${JSON.stringify(text)}`);
  });
  const [start, end = start, step = 1] = nums as [number, number?, number?];
  for (const n of [start, end]) {
    if (n < 0 || n > 1) throw new UsageError(`${flag}: thresholds lie in [0, 1], got ${n}`);
  }
  if (start > end) throw new UsageError(`${flag}: the range ${JSON.stringify(text)} is reversed (start ${start} > end ${end})`);
  if (!(step > 0)) throw new UsageError(`${flag}: the range ${JSON.stringify(text)} is empty (the step must be > 0)`);
  const count = Math.floor((end - start) / step + 1e-9) + 1;
  if (count > MAX_THRESHOLDS) throw new UsageError(`${flag}: the range ${JSON.stringify(text)} has ${count} thresholds (at most ${MAX_THRESHOLDS})`);
  return Array.from({ length: count }, (_, i) => Number((start + i * step).toFixed(10)));
}
