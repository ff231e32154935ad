import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FIRST = ['Alice', 'Bruno', 'Chiara', 'Dmitri', 'Esme', 'Farid', 'Greta', 'Hiro', 'Ines', 'Jonas', 'Kaia', 'Lars', 'Mira', 'Nadia', 'Omar', 'Priya'];
const LAST = ['Abernathy', 'Balogun', 'Castellanos', 'Dunmore', 'Eriksen', 'Fairweather', 'Galewright', 'Holloway', 'Ishikawa', 'Jovanovic'];
const WORDS = ['Anvil', 'Beacon', 'Cobalt', 'Delta', 'Ember', 'Fjord', 'Granite', 'Harbor', 'Indigo', 'Juniper', 'Kestrel', 'Lumen'];

export interface StreamPage {
  slug: string;
  title: string;
  alias: string;
  private: boolean;
}

/** A brain of people and companies; every seventh page is private (remote traffic never sees it). */
export function streamPages(count = 240): StreamPage[] {
  const pages: StreamPage[] = [];
  for (let i = 0; i < count; i++) {
    const person = i % 3 !== 2;
    const title = person
      ? `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`
      : `${WORDS[i % WORDS.length]} ${WORDS[Math.floor(i / WORDS.length) % WORDS.length]} Labs`;
    const slug = `${person ? 'people' : 'companies'}/${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
    if (pages.some((p) => p.slug === slug)) continue;
    const alias = person ? `${title.split(' ')[0]}-${i}` : `${title.split(' ')[0]}${i}`;
    pages.push({ slug, title, alias, private: i % 7 === 3 });
  }
  return pages;
}

/** Writes the pages as a markdown folder (what `publish pages` and `import` read). */
export function writeBrain(dir: string, pages: readonly StreamPage[]): void {
  for (const p of pages) {
    const file = join(dir, `${p.slug}.md`);
    mkdirSync(join(file, '..'), { recursive: true });
    const visibility = p.private ? 'visibility: private\n' : '';
    writeFileSync(file, `---\ntitle: ${p.title}\ntype: ${p.slug.startsWith('people/') ? 'person' : 'company'}\naliases: ["${p.alias}"]\n${visibility}---\n\n${p.title} is someone we work with.\n`);
  }
}

export interface TurnLine {
  session_id: string;
  role: 'user' | 'assistant';
  text: string;
  turn: number;
  at: string;
}

/**
 * `sessions` conversations of `turnsPerSession` turns, interleaved round robin, so every session
 * spans the whole stream (a partition that moves takes conversations in the middle). Users name
 * pages by title or alias — a different page most turns, some again — and assistants mostly
 * follow up without names. Deterministic within a day: the same call gives the same lines.
 *
 * The turns are from yesterday (UTC midnight), never from a fixed date: a serve under test runs
 * its retention purge a minute after it starts, and turns older than the retention would be
 * purged from under a slow test, which then no longer matches its uninterrupted reference.
 */
const YESTERDAY = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000;

export function conversationStream(pages: readonly StreamPage[], sessions = 50, turnsPerSession = 200): TurnLine[] {
  const lines: TurnLine[] = [];
  const base = YESTERDAY + 9 * 3_600_000;
  for (let i = 0; i < sessions * turnsPerSession; i++) {
    const s = i % sessions;
    const turn = Math.floor(i / sessions) + 1;
    const p = pages[(s * 31 + turn * 17) % pages.length]!;
    const q = pages[(s * 7 + turn * 5) % pages.length]!;
    let text: string;
    if (turn % 2 === 1) text = turn % 3 === 0 ? `what did ${p.alias} say about ${q.title}?` : `can you pull up ${p.title} before the call`;
    else text = turn % 5 === 0 ? `noted, ${q.title} wants the deck by Friday` : 'sure, they asked for the numbers again';
    lines.push({ session_id: `conv-${s}`, role: turn % 2 === 1 ? 'user' : 'assistant', text, turn, at: new Date(base + i * 10).toISOString() });
  }
  return lines;
}

export const jsonLines = (lines: readonly object[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
