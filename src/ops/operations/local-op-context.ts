import type { Brain } from '../../brain/brain.js';
import type { Caller } from '../../caller.js';
import type { PageIndex } from '../../context/page-index.js';
import { PageIndexFollower } from '../../../streams/page-index-follower.js';
import type { OpContext } from './operation.js';

/** A context for one operation on a brain opened by this process; the page index loads on first use. */
export function localOpContext(brain: Brain, caller: Caller, home: string | null): OpContext {
  let index: Promise<PageIndex> | null = null;
  return {
    brain,
    caller,
    home,
    pageIndex: () => (index ??= PageIndexFollower.load(brain.db, brain.log).then((f) => f.index)),
  };
}
