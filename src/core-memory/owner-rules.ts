import { corePriority, isMarkedCore } from './core-page.js';
import { CoreDeleteOwnerOnlyError, CoreMarkOwnerOnlyError } from './errors.js';

const OWNER_ONLY = 'only the brain owner can change core membership or priority';

export const coreAddCommand = (sourceId: string, slug: string, priority?: number): string =>
  `brainstream core add --source ${sourceId} ${slug}${priority === undefined ? '' : ` --priority ${priority}`}`;
export const coreRemoveCommand = (sourceId: string, slug: string): string => `brainstream core remove --source ${sourceId} ${slug}`;

/** A priority the CLI can pass on: `--priority` takes an integer. */
const requestedPriority = (input: Record<string, unknown>): number | undefined =>
  Object.hasOwn(input, 'core_priority') && Number.isInteger(input.core_priority) ? (input.core_priority as number) : undefined;

function markRefusal(sourceId: string, slug: string, command: string, extra = ''): CoreMarkOwnerOnlyError {
  return new CoreMarkOwnerOnlyError(`${OWNER_ONLY}${extra}. Ask the user to run: ${command}`, { source_id: sourceId, slug, command });
}

export interface RemoteCoreKeysCheck {
  source_id: string;
  slug: string;
  /** Frontmatter of the stored live row; null for a new page. */
  stored: Record<string, unknown> | null;
  /** Frontmatter of the remote write as given. */
  input: Record<string, unknown>;
}

/**
 * Owner-only core keys for a remote page write (§5.1). Compares effective values, so
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
    if (wantsCore !== wasCore) {
      throw wantsCore
        ? markRefusal(sourceId, slug, coreAddCommand(sourceId, slug, requestedPriority(input)))
        : markRefusal(sourceId, slug, coreRemoveCommand(sourceId, slug));
    }
  }
  if (Object.hasOwn(input, 'core_priority') && corePriority(input) !== corePriority(stored)) {
    const willBeCore = Object.hasOwn(input, 'always_load') ? input.always_load === true : wasCore;
    if (willBeCore) throw markRefusal(sourceId, slug, coreAddCommand(sourceId, slug, requestedPriority(input) ?? corePriority(input)));
    // No command sets a priority without making the page core; say so instead of misleading.
    throw markRefusal(
      sourceId,
      slug,
      coreAddCommand(sourceId, slug, requestedPriority(input) ?? corePriority(input)),
      ' (core_priority only matters for core pages; leave it out of this write, or have the page made core)',
    );
  }

  const merged: Record<string, unknown> = { ...input };
  for (const key of ['always_load', 'core_priority'] as const) {
    if (!Object.hasOwn(input, key) && Object.hasOwn(stored, key)) merged[key] = stored[key];
  }
  return merged;
}

/** A remote delete of a core page is refused (§5.2); names the owner's removal command. */
export function checkRemoteDelete(page: { source_id: string; slug: string; frontmatter: Record<string, unknown> }): void {
  if (!isMarkedCore(page.frontmatter)) return;
  const command = coreRemoveCommand(page.source_id, page.slug);
  throw new CoreDeleteOwnerOnlyError(
    `only the brain owner can delete a core page. Ask the user to run: ${command} (after which the page can be deleted)`,
    { source_id: page.source_id, slug: page.slug, command },
  );
}
