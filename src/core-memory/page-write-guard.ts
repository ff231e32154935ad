import { canonicalJson } from './canonical-json.js';
import { evaluateCoreBudget, type CoreBudgetDecision } from './core-budget.js';
import { isMarkedCore, type CorePageRow } from './core-page.js';
import { checkRemoteCoreKeys } from './owner-rules.js';
import { decideRemoteEdit, remoteEditRefusal, type RemoteEditOutcome, type RemoteEditPolicy } from './remote-edit.js';

export interface PageWriteGuardInput<P extends CorePageRow> {
  caller: 'owner' | 'remote';
  /** Sources the caller can read; null = all (owner). */
  readable: readonly string[] | null;
  /** False for the owner's file import, which the budget never blocks. */
  budgeted: boolean;
  /**
   * The stored row before the write, or null for a new page. A soft-deleted row (`deleted: true`)
   * still carries the owner's `always_load`: the owner-only keys and the remote-edit policy
   * treat it as core, so a remote caller can neither clear that mark nor revive the page
   * unnoticed; the budget counts it as absent.
   */
  stored: P | null;
  /** The proposed row (owner: exactly as given). */
  next: P;
  /** Every row marked core (live or not); the written row may be among them. */
  corePages: readonly CorePageRow[];
  maxChars: number;
  remoteEdit: RemoteEditPolicy;
  today: string;
}

export interface PageWriteGuardResult<P extends CorePageRow> {
  /** The row to save (remote: omitted core keys merged back). */
  page: P;
  /** False when the saved row would equal the stored one: nothing to write. */
  changed: boolean;
  /** `notify`: record the new revision as a pending remote edit. */
  remoteEdit: RemoteEditOutcome;
  budget: CoreBudgetDecision | null;
}

/** Everything but identity and bookkeeping, compared key-order independently. */
function content(page: CorePageRow): string {
  const { source_id: _s, slug: _g, deleted: _d, ...rest } = page as CorePageRow & Record<string, unknown>;
  return canonicalJson(rest);
}

/**
 * The core checks of one page write, in this order: owner-only keys → remote-edit
 * policy → budget. Throws the refusal (nothing may be written then). Owner writes are
 * authoritative: no key merge, no remote-edit policy, budget only when `budgeted`.
 */
export function guardPageWrite<P extends CorePageRow>(input: PageWriteGuardInput<P>): PageWriteGuardResult<P> {
  let page = input.next;
  if (input.caller === 'remote') {
    const frontmatter = checkRemoteCoreKeys({
      source_id: page.source_id,
      slug: page.slug,
      stored: input.stored?.frontmatter ?? null,
      input: page.frontmatter,
    });
    page = { ...page, frontmatter };
  }
  const changed = input.stored === null || input.stored.deleted === true || content(input.stored) !== content(page);
  const remoteEdit = decideRemoteEdit({
    caller: input.caller,
    wasCore: input.stored !== null && isMarkedCore(input.stored.frontmatter),
    changed,
    policy: input.remoteEdit,
  });
  if (remoteEdit === 'refuse') throw remoteEditRefusal(page.source_id, page.slug);
  if (!changed || !input.budgeted) return { page, changed, remoteEdit, budget: null };

  const rows = input.stored === null ? input.corePages : [...input.corePages.filter((p) => !(p.source_id === page.source_id && p.slug === page.slug)), input.stored];
  const budget = evaluateCoreBudget({
    pages: rows,
    write: { kind: 'upsert', page },
    maxChars: input.maxChars,
    today: input.today,
    readable: input.readable,
  });
  if (budget.error) throw budget.error;
  return { page, changed, remoteEdit, budget };
}
