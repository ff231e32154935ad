import { DEFAULT_MIN_CONFIDENCE } from '../context/knobs.js';
import type { ReplayReport, ThresholdRow } from './replay-report.js';

const HEADERS = ['gate', 'arm', 'volunteered', 'used (approx)', 'used (session)', 'precision (approx)', 'precision (session)', 'recall'];
const gateText = (g: number): string => `${g.toFixed(2)}${Math.abs(g - DEFAULT_MIN_CONFIDENCE) < 1e-9 ? '*' : ''}`;

/** The human rendering of a replay: a summary, then per gate a total line and one line per arm. */
export function renderReplay(r: ReplayReport): string {
  const range = r.since ? `since ${r.since}` : 'all logged turns';
  const lines = [
    `replay: ${r.turns} turn(s) in ${r.sessions} session(s) (${range}), ${r.thresholds.length} gate(s)${r.max_pages !== null ? `, max ${r.max_pages} page(s) per turn` : ''}; nothing was written`,
    `recall denominator: ${r.retrieved_in_session} page(s) retrieved in a replayed session`,
  ];
  if (r.skipped_events > 0) {
    const why = Object.entries(r.skipped_reasons).map(([reason, n]) => `${reason} ×${n}`).join('; ');
    lines.push(`skipped ${r.skipped_events} log entr${r.skipped_events === 1 ? 'y' : 'ies'} that could not be decoded: ${why}`);
  }
  if (r.turns === 0) return `${[...lines, '(no logged turns to replay)'].join('\n')}\n`;
  const out = [...lines, '', ...table(r.thresholds)];
  if (r.learned) {
    out.push('', 'learning gate (retrieval.reflex.learning) on the same turns:', '', ...table(r.learned), '', 'static → learning gate:');
    r.thresholds.forEach((t, i) => out.push(comparison(t, r.learned![i]!)));
  }
  return `${[...out, `* the default gate (${DEFAULT_MIN_CONFIDENCE})`].join('\n')}\n`;
}

function table(thresholds: readonly ThresholdRow[]): string[] {
  const rows: string[][] = [HEADERS];
  for (const t of thresholds) {
    rows.push([gateText(t.min_confidence), 'all', ...[t.volunteered, t.used_approximate, t.used_session, t.precision_approximate, t.precision_session, t.recall].map(String)]);
    for (const a of t.by_arm) {
      rows.push(['', a.match_arm, ...[a.volunteered, a.used_approximate, a.used_session, a.precision_approximate, a.precision_session].map(String), '']);
    }
  }
  const widths = HEADERS.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd());
}

const signed = (d: number): string => `${d >= 0 ? '+' : '−'}${Math.abs(d).toFixed(3)}`;

/** One gate, static against learning: session precision, recall and volume. */
function comparison(s: ThresholdRow, l: ThresholdRow): string {
  const p = l.precision_session - s.precision_session;
  const r = l.recall - s.recall;
  return `${gateText(s.min_confidence)}  precision (session) ${s.precision_session} → ${l.precision_session} (${signed(p)}), ` +
    `precision (approx) ${s.precision_approximate} → ${l.precision_approximate}, recall ${s.recall} → ${l.recall} (${signed(r)}), ` +
    `volunteered ${s.volunteered} → ${l.volunteered}`;
}
