import type { Brain } from '../brain/brain.js';
import type { PageIndex } from '../context/page-index.js';
import { SourceId } from '../domain/event-schemas.js';
import type { CommandHost } from './command-host.js';
import type { CoreCacheKeeper } from './core-cache-keeper.js';
import type { DeliveryLog } from '../turn-context/delivery-log.js';
import type { HookSessionNumbers } from './hook-session-numbers.js';
import type { TurnSink } from '../../streams/turn-engine.js';
import type { HotFact } from '../turn-context/turn-block.js';

/** What request handlers use of the running owner. */
export interface ServeDeps {
  role: 'serve' | 'watch';
  home: string;
  brain: Brain;
  pageIndex(): Promise<PageIndex>;
  deliveries: DeliveryLog;
  /** The one volunteer processor: harness turns are appended and decided here, like `watch`'s. */
  turns: TurnSink;
  hookSessions: HookSessionNumbers;
  /** A turn's block is assembled within this, else answered empty (`server_budget`). */
  turnBudgetMs: number;
  core: CoreCacheKeeper;
  commands: CommandHost;
  /** Hot facts of a source for the turn block. */
  hotFacts(sourceId: string, sessionId: string | null): Promise<HotFact[]>;
}

/** A source a request may name: `default` always, others once they hold a live page. */
export function knownSource(index: PageIndex, sourceId: string): boolean {
  if (!SourceId.safeParse(sourceId).success) return false;
  return sourceId === 'default' || (index.source(sourceId)?.pages.size ?? 0) > 0;
}
