import { createHash } from 'node:crypto';
import type { CorePageRow } from './core-page.js';
import { brainWideCorePages, sessionCorePages, type SessionScope } from './core-order.js';
import { buildCoreSection, type CoreSection } from './core-section.js';

const CORE_BLOCK_HEADER = '# Core memory';

export interface CoreBlock {
  /** The block text; "" when no page renders (no header then). */
  text: string;
  /** Size in UTF-16 code units, headings and separators included. */
  chars: number;
  sections: CoreSection[];
}

/** `# Core memory` and the sections joined by blank lines, no trailing newline. */
function joinCoreBlock(sections: readonly CoreSection[]): CoreBlock {
  const text = sections.length === 0 ? '' : [CORE_BLOCK_HEADER, ...sections.map((s) => s.section)].join('\n\n');
  return { text, chars: text.length, sections: [...sections] };
}

/** The block every session of (S, R) receives: default's core pages, then S's own, of the readable ones. */
export function renderSessionBlock(pages: readonly CorePageRow[], scope: SessionScope, today: string): CoreBlock {
  return joinCoreBlock(sessionCorePages(pages, scope).map((p) => buildCoreSection(p, today)));
}

/** Every renderable core page of the brain: what the budget, listings and revision use. */
export function renderBrainWideBlock(pages: readonly CorePageRow[], today: string): CoreBlock {
  return joinCoreBlock(brainWideCorePages(pages).map((p) => buildCoreSection(p, today)));
}

/** First 16 hex characters of SHA-256 of the UTF-8 block (defined for "" too). */
export function coreRevision(blockText: string): string {
  return createHash('sha256').update(blockText, 'utf8').digest('hex').slice(0, 16);
}
