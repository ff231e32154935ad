import { DEFAULT_MIN_CONFIDENCE } from '../context/knobs.js';
import type { ReplayReport } from './replay-report.js';
import { countTicks } from './count-ticks.js';

/** One colour per arm (colour-blind-safe palette), the total in near-black. */
const COLOURS: Record<string, string> = {
  all: '#222222', learned: '#7b3294', alias: '#0072b2', title: '#e69f00', 'title-surname': '#009e73', 'cjk-title': '#cc79a7', 'slug-suffix': '#d55e00',
};
const W = 980;
const H = 510;
const PANEL = { top: 92, height: 280, width: 380 };
const LEFTS = [70, 560];

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const num = (n: number): string => (Math.round(n * 100) / 100).toString();

interface Series {
  name: string;
  /** y null: undefined there (precision when nothing was volunteered): the line breaks. */
  points: [number, number | null][];
  dashed?: boolean;
}

function panel(left: number, title: string, xs: number[], yMax: number, yTicks: number[], yFmt: (n: number) => string, series: Series[]): string {
  const [x0, x1] = xs.length > 1 ? [xs[0]!, xs.at(-1)!] : [xs[0]! - 0.05, xs[0]! + 0.05];
  const px = (x: number): number => left + ((x - x0) / (x1 - x0)) * PANEL.width;
  const py = (y: number): number => PANEL.top + PANEL.height - (y / yMax) * PANEL.height;
  const bottom = PANEL.top + PANEL.height;
  const parts: string[] = [`<text x="${left + PANEL.width / 2}" y="${PANEL.top - 14}" text-anchor="middle" font-size="15" font-weight="600">${esc(title)}</text>`];
  for (const t of yTicks) {
    parts.push(`<line x1="${left}" x2="${left + PANEL.width}" y1="${num(py(t))}" y2="${num(py(t))}" stroke="#e4e4e4"/>`);
    parts.push(`<text x="${left - 8}" y="${num(py(t) + 4)}" text-anchor="end" font-size="12">${yFmt(t)}</text>`);
  }
  const xTicks = xs.length <= 13 ? xs : Array.from({ length: 6 }, (_, i) => x0 + ((x1 - x0) * i) / 5);
  for (const t of xTicks) {
    parts.push(`<line x1="${num(px(t))}" x2="${num(px(t))}" y1="${bottom}" y2="${bottom + 5}" stroke="#444"/>`);
    parts.push(`<text x="${num(px(t))}" y="${bottom + 19}" text-anchor="middle" font-size="12">${t.toFixed(2)}</text>`);
  }
  if (DEFAULT_MIN_CONFIDENCE >= x0 && DEFAULT_MIN_CONFIDENCE <= x1) {
    const x = num(px(DEFAULT_MIN_CONFIDENCE));
    parts.push(`<line x1="${x}" x2="${x}" y1="${PANEL.top}" y2="${bottom}" stroke="#999" stroke-dasharray="2 4"/>`);
    parts.push(`<text x="${x}" y="${bottom + 32}" text-anchor="middle" font-size="11" fill="#666">default</text>`);
  }
  parts.push(`<rect x="${left}" y="${PANEL.top}" width="${PANEL.width}" height="${PANEL.height}" fill="none" stroke="#444"/>`);
  parts.push(`<text x="${left + PANEL.width / 2}" y="${bottom + 52}" text-anchor="middle" font-size="13">min_confidence (gate)</text>`);
  // Dashed lines first, so a solid line that coincides stays visible on top.
  for (const s of [...series.filter((x) => x.dashed), ...series.filter((x) => !x.dashed)]) {
    const colour = COLOURS[s.name] ?? '#777777';
    const width = s.name === 'all' || s.name === 'learned' ? 3 : 2;
    let d = '';
    let pen = 'M';
    for (const [x, y] of s.points) {
      if (y === null) {
        pen = 'M';
        continue;
      }
      d += `${pen}${num(px(x))},${num(py(y))} `;
      pen = 'L';
    }
    parts.push(`<path d="${d.trim()}" fill="none" stroke="${colour}" stroke-width="${width}"${s.dashed ? ' stroke-dasharray="7 5"' : ''}/>`);
    for (const [x, y] of s.points) {
      if (y !== null) parts.push(`<circle cx="${num(px(x))}" cy="${num(py(y))}" r="${s.dashed ? 2.5 : 3.5}" fill="${s.dashed ? '#fff' : colour}" stroke="${colour}"/>`);
    }
  }
  return parts.join('\n');
}

/**
 * The replay plot: precision (session attribution solid, approximate dashed) and the number of
 * volunteered pages against the gate, one line per arm plus the total. Plain SVG, no dependency.
 */
export function renderReplayPlot(r: ReplayReport): string {
  const xs = r.thresholds.map((t) => t.min_confidence);
  const names = ['all', ...r.arms];
  const rowOf = (name: string, i: number) => (name === 'all' ? r.thresholds[i]! : r.thresholds[i]!.by_arm.find((a) => a.match_arm === name)!);
  const defined = (name: string, i: number, y: number): number | null => (rowOf(name, i).volunteered === 0 ? null : y);
  const precision: Series[] = names.flatMap((name) => [
    { name, points: xs.map((x, i): [number, number | null] => [x, defined(name, i, rowOf(name, i).precision_session)]) },
    { name, dashed: true, points: xs.map((x, i): [number, number | null] => [x, defined(name, i, rowOf(name, i).precision_approximate)]) },
  ]);
  const volume: Series[] = names.map((name) => ({ name, points: xs.map((x, i): [number, number] => [x, rowOf(name, i).volunteered]) }));
  // With --learned, the learning gate's totals beside the static gate's, scored on the same turns.
  if (r.learned) {
    const rows = r.learned;
    const learnedAt = (i: number, y: number): number | null => (rows[i]!.volunteered === 0 ? null : y);
    precision.push(
      { name: 'learned', points: xs.map((x, i): [number, number | null] => [x, learnedAt(i, rows[i]!.precision_session)]) },
      { name: 'learned', dashed: true, points: xs.map((x, i): [number, number | null] => [x, learnedAt(i, rows[i]!.precision_approximate)]) },
    );
    volume.push({ name: 'learned', points: xs.map((x, i): [number, number] => [x, rows[i]!.volunteered]) });
  }
  const counts = countTicks(Math.max(0, ...volume.flatMap((s) => s.points.map((p) => p[1] ?? 0))));
  const legendY = PANEL.top + PANEL.height + 84;
  const legend = names.map((name, i) => {
    const x = 70 + i * 150;
    return `<line x1="${x}" x2="${x + 26}" y1="${legendY}" y2="${legendY}" stroke="${COLOURS[name] ?? '#777777'}" stroke-width="${name === 'all' ? 3 : 2}"/><text x="${x + 32}" y="${legendY + 4}" font-size="13">${esc(name === 'all' ? 'all arms' : name)}</text>`;
  });
  const styleY = legendY + 24;
  const subtitle = `${r.turns.toLocaleString('en')} turns, ${r.sessions.toLocaleString('en')} sessions${r.since ? ` since ${r.since.slice(0, 10)}` : ''}; precision = used / volunteered (no point where an arm volunteered nothing)`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif" fill="#222">`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${W / 2}" y="26" text-anchor="middle" font-size="18" font-weight="700">brainstream replay: precision and volume by min_confidence${r.learned ? ', static and learning gates' : ''}</text>`,
    `<text x="${W / 2}" y="50" text-anchor="middle" font-size="13" fill="#555">${esc(subtitle)}</text>`,
    panel(LEFTS[0]!, 'Precision', xs, 1, [0, 0.25, 0.5, 0.75, 1], (n) => n.toFixed(2), precision),
    panel(LEFTS[1]!, 'Volunteered pages', xs, counts.top, counts.ticks, (n) => n.toLocaleString('en'), volume),
    ...legend,
    `<line x1="70" x2="96" y1="${styleY}" y2="${styleY}" stroke="#222" stroke-width="2"/><text x="102" y="${styleY + 4}" font-size="12">precision, session attribution (exact)</text>`,
    `<line x1="360" x2="386" y1="${styleY}" y2="${styleY}" stroke="#222" stroke-width="2" stroke-dasharray="7 5"/><text x="392" y="${styleY + 4}" font-size="12">precision, approximate attribution</text>`,
    ...(r.learned ? [`<line x1="650" x2="676" y1="${styleY}" y2="${styleY}" stroke="${COLOURS.learned}" stroke-width="3"/><text x="682" y="${styleY + 4}" font-size="12">learning gate, all arms</text>`] : []),
    `</svg>`,
    '',
  ].join('\n');
}
