import type { Brain } from '../brain/brain.js';
import type { Caller } from '../caller.js';
import { isCorePage } from '../core-memory/core-page.js';
import { buildCoreSection } from '../core-memory/core-section.js';
import { BrainstreamError } from '../errors.js';
import { utcDay } from '../pages/facts-table.js';
import { resolvePage } from '../pages/resolve-page.js';
import { editPageGuarded } from './core-page-write.js';
import { coreUsage, type CoreUsage } from './core-usage.js';

const PROFILE_SLUG = 'core/profile';
export const PROFILE_BODY = '## Who I am\n\n- \n\n## How I like to work\n\n- \n\n## Projects in flight\n\n- ';
/** The page as if written by hand, so it is stored exactly as `page put` of it would store it. */
const PROFILE_MARKDOWN = `---\ntitle: Profile\ntype: profile\nalways_load: true\ncore_priority: 10\n---\n${PROFILE_BODY}\n`;

export interface CoreInitResult {
  status: 'created' | 'already_initialised';
  source_id: string;
  slug: string;
  chars: number;
  usage: CoreUsage;
}

/**
 * `core init`: creates `core/profile` (title Profile, type profile, core at priority 10) as a
 * guarded owner write. An existing core profile is left alone; an existing non-core page is
 * `page_exists`, naming the command that makes it core instead.
 */
export async function coreInit(brain: Brain, caller: Caller, sourceId: string, now = new Date()): Promise<CoreInitResult> {
  const { plan } = await editPageGuarded(
    brain,
    caller,
    sourceId,
    PROFILE_SLUG,
    (row) => {
      if (row && !row.deleted) {
        if (isCorePage(row)) return null;
        const command = `brainstream core add ${sourceId === 'default' ? '' : `--source ${sourceId} `}${PROFILE_SLUG}`;
        throw new BrainstreamError('page_exists', `${sourceId}:${PROFILE_SLUG} already exists and is not core; to make it core run: ${command}`, {
          source_id: sourceId,
          slug: PROFILE_SLUG,
          command,
        });
      }
      return { next: resolvePage(PROFILE_MARKDOWN, { slugHint: PROFILE_SLUG }), file_path: null };
    },
    { now },
  );
  const section = buildCoreSection({ source_id: sourceId, slug: PROFILE_SLUG, ...plan.page }, utcDay(now));
  return {
    status: plan.changed ? 'created' : 'already_initialised',
    source_id: sourceId,
    slug: PROFILE_SLUG,
    chars: section.chars,
    usage: await coreUsage(brain, now),
  };
}
