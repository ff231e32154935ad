import type { Brain } from '../brain/brain.js';
import type { Caller } from '../caller.js';
import { brainConfig } from '../config/brain-config.js';
import { measureCore } from '../core-memory/core-budget.js';
import { coreListLines, coreStatusJson, listCorePages } from '../core-memory/core-listing.js';
import { MAX_CORE_PAGES } from '../core-memory/core-page.js';
import { pageCommand } from '../core-memory/core-ref.js';
import { memorySettings } from '../core-memory/memory-settings.js';
import { utcDay } from '../pages/facts-table.js';
import { pendingNoticesFor, sessionCoreBlock } from './core-delivery.js';
import { loadCoreRows } from '../../projections/pages-queries.js';

/** `core list`: the owner sees its private core pages (marked as not rendered); remote callers never do. */
export async function coreList(brain: Brain, caller: Caller, now = new Date()) {
  const today = utcDay(now);
  const rows = await loadCoreRows(brain.db);
  const maxChars = memorySettings(brainConfig(brain)).maxChars;
  const viewer = { readable: caller.grant, includePrivate: caller.kind === 'owner' };
  const measure = measureCore(rows, today);
  return {
    lines: coreListLines(rows, viewer, maxChars, today),
    json: {
      pages: listCorePages(rows, viewer, today),
      used_chars: measure.chars,
      max_chars: maxChars,
      page_count: measure.count,
      max_pages: MAX_CORE_PAGES,
    },
  };
}

/** `core status --json`: effective settings, usage, revision, pending notices and visible pages. */
export async function coreStatus(brain: Brain, caller: Caller, now = new Date()) {
  const settings = memorySettings(brainConfig(brain));
  return coreStatusJson({
    pages: await loadCoreRows(brain.db),
    settings: { coreEnabled: settings.coreEnabled, maxChars: settings.maxChars, remoteEdit: settings.remoteEdit },
    readable: caller.grant,
    includePrivate: caller.kind === 'owner',
    pending: await pendingNoticesFor(brain.db, caller),
    today: utcDay(now),
  });
}

export type CoreStatus = Awaited<ReturnType<typeof coreStatus>>;

/** `core status` for people: a few lines from the same numbers as `--json`. */
export function coreStatusLines(s: CoreStatus): string[] {
  const lines = [
    `core memory is ${s.enabled ? 'on' : 'off'}${s.enabled ? '' : ' (turn it on: brainstream config set memory.core.enabled true)'}`,
    `used ${s.used_chars}/${s.max_chars} chars${s.over_budget ? `, over budget by ${s.over_by}` : `, ${s.remaining_chars} remaining`}; ${s.page_count}/${s.max_pages} pages`,
    `revision ${s.revision}; remote edits: ${s.remote_edit}`,
  ];
  if (s.pending_notices.length > 0) {
    const review = s.pending_notices.map((n) => pageCommand('core diff', n.source_id, n.slug));
    lines.push(`pending remote edits: ${s.pending_notices.map((n) => `${n.source_id}:${n.slug}@${n.revision}`).join(', ')} (review: ${[...new Set(review)].join('; ')})`);
  }
  for (const p of s.pages) lines.push(`  ${p.chars} chars  ${p.source_id}:${p.slug}  priority ${p.priority}${p.renders ? '' : ' (not rendered)'}`);
  return lines;
}

/** `core show`: exactly the session block for (S, R) of the caller, and whether core is on. */
export async function coreShow(brain: Brain, caller: Caller, now = new Date()): Promise<{ text: string; enabled: boolean }> {
  const block = await sessionCoreBlock(brain.db, caller, now);
  return { text: block.text, enabled: memorySettings(brainConfig(brain)).coreEnabled };
}
