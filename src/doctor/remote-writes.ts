import { pageCommand } from '../core-memory/core-ref.js';
import { listRemoteWrites } from '../../projections/pages-queries.js';
import { seesRemoteWriteNotices } from '../ops/caller-scope.js';
import type { DoctorCheck, DoctorCheckDef } from './doctor-check.js';

const SHOWN = 5;

/**
 * Pages a remote caller rewrote while parts it could not see (takes, private facts, core keys)
 * were kept for it: the owner should look at them. An owner write of the page clears the finding.
 */
export const remoteWritesCheck: DoctorCheckDef = {
  name: 'remote_writes',
  async run(ctx): Promise<DoctorCheck> {
    if (!seesRemoteWriteNotices(ctx.caller)) return { name: 'remote_writes', status: 'ok', message: 'owner only' };
    const rows = await listRemoteWrites(ctx.db, ctx.sources);
    if (rows.length === 0) return { name: 'remote_writes', status: 'ok', message: 'no page rewritten remotely around hidden parts' };
    const named = rows.slice(0, SHOWN).map((r) => `${r.source_id}:${r.slug} (${r.remote_write.at}, kept ${r.remote_write.kept.join(', ')})`);
    const more = rows.length > SHOWN ? ` and ${rows.length - SHOWN} more` : '';
    return {
      name: 'remote_writes',
      status: 'warn',
      message: `${rows.length} page(s) rewritten by a remote caller that kept parts it could not see: ${named.join('; ')}${more} — review with ${pageCommand('page get', rows[0]!.source_id, rows[0]!.slug)}${rows.length > 1 ? ' (and the others the same way)' : ''}; your next write of a page clears this`,
      details: { pages: rows.map((r) => ({ source_id: r.source_id, slug: r.slug, ...r.remote_write })) },
    };
  },
};
