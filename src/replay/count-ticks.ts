/**
 * Ticks for a count axis: a step of 1, 2 or 5 times a power of ten (never below 1, since counts
 * are whole), chosen so the axis has at most `maxTicks` intervals, and an axis top that is a whole
 * number of steps at or above the largest count. Every tick is a distinct integer, so no two
 * labels read the same however small the counts are.
 */
export function countTicks(largest: number, maxTicks = 5): { top: number; ticks: number[] } {
  const span = Math.max(1, Math.ceil(largest));
  const rough = span / maxTicks;
  const power = 10 ** Math.floor(Math.log10(Math.max(1, rough)));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough)!;
  const top = Math.ceil(span / step) * step;
  const ticks: number[] = [];
  for (let t = 0; t <= top; t += step) ticks.push(t);
  return { top, ticks };
}
