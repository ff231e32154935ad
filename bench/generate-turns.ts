import { makeEvent, pageKey, type Envelope } from '../src/domain/events.js';
import type { Page } from '../src/pages/page.js';

const FILLER = [
  'can you check the numbers for next week?',
  'I think we should follow up on that intro.',
  'what did she say about the round?',
  'sounds good, let me draft a reply.',
  'the board meeting moved to Thursday.',
  'any updates on this since Monday?',
  'let us keep the memo short and send it tonight.',
  'they asked for the updated deck before Friday.',
];

/** A deterministic pseudo-random sequence (LCG), so every run logs the same conversation. */
function random(seed: number): (n: number) => number {
  let x = seed >>> 0;
  return (n) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
}

export interface TurnLogOptions {
  turns: number;
  turnsPerSession?: number;
  /** Sessions open at once; their turns interleave in the log. */
  concurrent?: number;
  start?: Date;
  days?: number;
}

/**
 * A conversation log over a brain: sessions of alternating user/assistant turns, about four in
 * ten naming a page (title, alias, surname or slug tail), the rest small talk; and, for about one
 * named page in six, a retrieval of it later in the same session, plus stray reads elsewhere.
 * Yields chunks of events in log order.
 */
export function* generateTurnLog(pages: readonly Page[], o: TurnLogOptions): Generator<Envelope[]> {
  const perSession = o.turnsPerSession ?? 40;
  const concurrent = o.concurrent ?? 16;
  const start = (o.start ?? new Date('2026-01-01T00:00:00Z')).getTime();
  const span = (o.days ?? 60) * 86_400_000;
  const next = random(42);
  let chunk: Envelope[] = [];
  for (let i = 0; i < o.turns; i++) {
    const slot = i % concurrent;
    const round = Math.floor(i / (concurrent * perSession));
    const turn = Math.floor(i / concurrent) % perSession;
    const session = `bench-${round}-${slot}`;
    const at = new Date(start + Math.floor((i / o.turns) * span)).toISOString();
    let text = FILLER[next(FILLER.length)]!;
    const r = next(100);
    const p = pages[next(pages.length)]!;
    if (r < 40) {
      const alias = (p.frontmatter.aliases as string[] | undefined)?.[0] ?? p.title;
      const name = r < 18 ? p.title : r < 30 ? alias : r < 36 ? p.title.split(' ').at(-1)! : p.slug.slice(p.slug.indexOf('/') + 1);
      text = `${r % 2 ? 'did' : 'what did'} ${name} ${FILLER[next(FILLER.length)]!.replace(/^\w+ /, '')}`;
    }
    const role = turn % 2 === 0 ? 'user' : 'assistant';
    chunk.push(makeEvent('turn.appended', { session_id: session, turn: turn + 1, role, text, source_id: p.source_id, settings: { window_turns: 4 } }, { key: session, at }));
    if (r < 40 && next(6) === 0) {
      const later = new Date(Date.parse(at) + 60_000).toISOString();
      chunk.push(makeEvent('page.retrieved', { source_id: p.source_id, slug: p.slug, session_id: next(4) ? session : null }, { key: session, at: later }));
    }
    if (chunk.length >= 20_000) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

export const pageEvents = (pages: readonly Page[], at = '2025-12-31T00:00:00Z'): Envelope[] =>
  pages.map((p) => makeEvent('page.upserted', { ...p, content_hash: p.slug, file_path: null, origin: 'import' }, { key: pageKey(p.source_id, p.slug), at }));
