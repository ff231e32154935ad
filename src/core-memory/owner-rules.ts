import { corePriority, isMarkedCore } from './core-page.js';
import { CoreDeleteOwnerOnlyError, CoreMarkOwnerOnlyError } from './errors.js';

const OWNER_ONLY = 'only the brain owner can change core membership or priority';

const coreAddCommand = (sourceId: string, slug: string, priority?: number): string =>
  `brainstream core add --source ${sourceId} ${slug}${priority === undefined ? '' : ` --priority ${priority}`}`;
export const coreRemoveCommand = (sourceId: string, slug: string): string => `brainstream core remove --source ${sourceId} ${slug}`;

/** The range `--priority` accepts on the CLI (a whole number, 32-bit). */
const CLI_PRIORITY_LIMIT = 2 ** 31 - 1;

export interface PrioritySuggestion {
  /** The `--priority` to name, or undefined: none was requested, or `core add` alone keeps it. */
  priority?: number;
  /** Said after the command when the named priority is not exactly the requested one. */
  note: string;
}

/**
 * What `--priority` a `core add` suggestion names for a write's `core_priority`: only a
 * priority the input asked for counts, never a stored one. The CLI takes whole numbers, so a
 * request it cannot pass (2.5, or beyond 32 bits) becomes the nearest it can, moved in the
 * direction of the change so the page still moves the way it was asked; a fractional request
 * equal to the stored priority names no flag (`core add` keeps the stored priority).
 */
export function suggestedPriority(input: Record<string, unknown>, stored: Record<string, unknown>): PrioritySuggestion {
  if (!Object.hasOwn(input, 'core_priority')) return { note: '' };
  const wanted = corePriority(input);
  const fits = (p: number): boolean => Number.isInteger(p) && Math.abs(p) <= CLI_PRIORITY_LIMIT;
  if (fits(wanted)) return { priority: wanted, note: '' };
  const current = corePriority(stored);
  if (wanted === current) return { note: '' };
  const whole = wanted < current ? Math.floor(wanted) : Math.ceil(wanted);
  const priority = Math.max(-CLI_PRIORITY_LIMIT, Math.min(CLI_PRIORITY_LIMIT, whole));
  return { priority, note: ` (--priority takes a whole number within ±${CLI_PRIORITY_LIMIT}, so core_priority ${wanted} becomes ${priority})` };
}

function removeRefusal(sourceId: string, slug: string): CoreMarkOwnerOnlyError {
  const command = coreRemoveCommand(sourceId, slug);
  return new CoreMarkOwnerOnlyError(`${OWNER_ONLY}. Ask the user to run: ${command}`, { source_id: sourceId, slug, command });
}

function addRefusal(check: RemoteCoreKeysCheck, stored: Record<string, unknown>, extra = ''): CoreMarkOwnerOnlyError {
  const { priority, note } = suggestedPriority(check.input, stored);
  const command = coreAddCommand(check.source_id, check.slug, priority);
  return new CoreMarkOwnerOnlyError(`${OWNER_ONLY}${extra}. Ask the user to run: ${command}${note}`, { source_id: check.source_id, slug: check.slug, command });
}

export interface RemoteCoreKeysCheck {
  source_id: string;
  slug: string;
  /**
   * Frontmatter of the stored row, a soft-deleted one included (its `always_load` is still the
   * owner's decision: `core remove` clears it, a re-created page keeps it); null for a new page.
   */
  stored: Record<string, unknown> | null;
  /** Frontmatter of the remote write as given. */
  input: Record<string, unknown>;
}

/**
 * Owner-only core keys for a remote page write: only the owner decides core membership and
 * priority. Compares effective values, so
 * echoing stored values (or `always_load: false` / `core_priority: 100` where none was set)
 * passes. Returns the frontmatter to save: omitted core keys keep their stored values so
 * ordinary remote edits never drop a page out of core or reorder it.
 */
export function checkRemoteCoreKeys(check: RemoteCoreKeysCheck): Record<string, unknown> {
  const { source_id: sourceId, slug, input } = check;
  const stored = check.stored ?? {};
  const wasCore = isMarkedCore(stored);

  if (Object.hasOwn(input, 'always_load')) {
    const wantsCore = input.always_load === true;
    if (wantsCore !== wasCore) throw wantsCore ? addRefusal(check, stored) : removeRefusal(sourceId, slug);
  }
  if (Object.hasOwn(input, 'core_priority') && corePriority(input) !== corePriority(stored)) {
    const willBeCore = Object.hasOwn(input, 'always_load') ? input.always_load === true : wasCore;
    // No command sets a priority without making the page core; say so instead of misleading.
    throw willBeCore ? addRefusal(check, stored) : addRefusal(check, stored, ' (core_priority only matters for core pages; leave it out of this write, or have the page made core)');
  }

  const merged: Record<string, unknown> = { ...input };
  for (const key of ['always_load', 'core_priority'] as const) {
    if (!Object.hasOwn(input, key) && Object.hasOwn(stored, key)) merged[key] = stored[key];
  }
  return merged;
}

/** A remote delete of a core page is refused (only the owner takes a page out of core); names the owner's command. */
export function checkRemoteDelete(page: { source_id: string; slug: string; frontmatter: Record<string, unknown> }): void {
  if (!isMarkedCore(page.frontmatter)) return;
  const command = coreRemoveCommand(page.source_id, page.slug);
  throw new CoreDeleteOwnerOnlyError(
    `only the brain owner can delete a core page. Ask the user to run: ${command} (after which the page can be deleted)`,
    { source_id: page.source_id, slug: page.slug, command },
  );
}
