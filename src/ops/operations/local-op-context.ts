import type { Brain } from '../../brain/brain.js';
import type { Caller } from '../../caller.js';
import type { PageIndex } from '../../context/page-index.js';
import type { OpContext } from './operation.js';

/**
 * A context for one operation on `brain`: its page index is the owner's live one inside serve,
 * else loaded once, on first use, for this call.
 */
export function localOpContext(brain: Brain, caller: Caller, home: string | null): OpContext {
  let index: Promise<PageIndex> | null = null;
  return { brain, caller, home, pageIndex: () => (index ??= brain.pageIndex()) };
}
