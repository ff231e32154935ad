import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBrain } from '../src/brain/brain.js';
import { importFolder } from '../src/ops/import-folder.js';
import type { Page } from '../src/pages/page.js';
import { tempFolder } from './temp-folder.js';

const FIRST = ['Alice', 'Bruno', 'Chiara', 'Dmitri', 'Esme', 'Farid', 'Greta', 'Hiro', 'Ines', 'Jonas', 'Kaia', 'Lars', 'Mira', 'Nadia', 'Omar', 'Priya'];
const LAST = ['Abernathy', 'Balogun', 'Castellanos', 'Dunmore', 'Eriksen', 'Fairweather', 'Galewright', 'Holloway', 'Ishikawa', 'Jovanovic', 'Kowalczyk', 'Lindqvist'];
const WORDS = ['Anvil', 'Beacon', 'Cobalt', 'Delta', 'Ember', 'Fjord', 'Granite', 'Harbor', 'Indigo', 'Juniper', 'Kestrel', 'Lumen'];

/** Deterministic synthetic names: every page title is unique, like a real brain's. */
function personName(i: number): string {
  return `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}${Math.floor(i / (FIRST.length * LAST.length)) || ''}`;
}
function companyName(i: number): string {
  return `${WORDS[i % WORDS.length]} ${WORDS[Math.floor(i / WORDS.length) % WORDS.length]} Labs${Math.floor(i / (WORDS.length * WORDS.length)) || ''}`;
}

/** A brain of `count` pages: people and companies 2:1, each with an alias. */
export function generatePages(count: number, sourceId = 'default'): Page[] {
  const pages: Page[] = [];
  for (let i = 0; i < count; i++) {
    const isPerson = i % 3 !== 2;
    const n = Math.floor(i / 3) * (isPerson ? 2 : 1) + (isPerson ? i % 3 : 0);
    const title = isPerson ? personName(n) : companyName(n);
    const slugBase = title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    const alias = isPerson ? title.split(' ')[0]! + (n > 0 ? String(n) : '') : title.replace(/ Labs\d*$/, '') + (n > 0 ? ` ${n}` : '');
    pages.push({
      source_id: sourceId,
      slug: `${isPerson ? 'people' : 'companies'}/${slugBase}`,
      title,
      type: isPerson ? 'person' : 'company',
      frontmatter: { aliases: [alias] },
      compiled_truth: `${title} is ${isPerson ? 'an operator we met through the seed network' : 'a company in the portfolio pipeline'}. More detail follows in the timeline.`,
      timeline: '- 2026-01-05 first meeting',
    });
  }
  return pages;
}

/** Writes the pages as a markdown folder, the way a user's brain looks on disk. */
export function writeBrainFolder(dir: string, pages: readonly Page[]): void {
  for (const p of pages) {
    const file = join(dir, `${p.slug}.md`);
    mkdirSync(join(file, '..'), { recursive: true });
    const aliases = (p.frontmatter.aliases as string[]).map((a) => JSON.stringify(a)).join(', ');
    writeFileSync(file, `---\ntitle: ${p.title}\ntype: ${p.type}\naliases: [${aliases}]\n---\n\n${p.compiled_truth}\n\n<!-- timeline -->\n\n${p.timeline}\n`);
  }
}

/** A fresh embedded home holding a generated brain of `pageCount` pages (imported from markdown). */
export async function seedBrainHome(pageCount: number, prefix: string): Promise<{ home: string; pages: Page[] }> {
  const src = tempFolder(`${prefix}src-`);
  const home = tempFolder(`${prefix}home-`);
  const pages = generatePages(pageCount);
  writeBrainFolder(src, pages);
  const brain = await openBrain(home);
  await importFolder(brain, src, 'default');
  await brain.close();
  rmSync(src, { recursive: true, force: true });
  return { home, pages };
}
