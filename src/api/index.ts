/**
 * The library API: open a brain, volunteer pages for a conversation window, hear every page
 * volunteered. Everything here runs in the calling process on the embedded brain, with the
 * same rules and results as the CLI (`volunteer-context --json`).
 */
import { openBrain, type Brain } from '../brain/brain.js';
import { BrainLockedError } from '../brain/brain-lock.js';
import { resolveHome } from '../home.js';
import { ownerCaller } from '../caller.js';
import { roundConfidence } from '../context/confidence.js';
import type { PageIndex } from '../context/page-index.js';
import type { OneShotJson } from '../context/render.js';
import { topicOf, type Envelope } from '../domain/events.js';
import { BrainstreamError } from '../errors.js';
import { importFolder as importPages, type ImportSummary } from '../ops/import-folder.js';
import type { OpContext } from '../ops/operations/operation.js';
import { runOperation } from '../ops/registry.js';

export { BrainstreamError } from '../errors.js';
export type { ImportSummary, ImportFailure } from '../ops/import-folder.js';
export type { OneShotJson as VolunteerResult, PageJson as VolunteeredPage } from '../context/render.js';

export interface OpenOptions {
  /** The brain's folder; default BRAINSTREAM_HOME, else ~/.brainstream. */
  home?: string;
  /** The source pages are read from and written to; default BRAINSTREAM_SOURCE, else "default". */
  source?: string;
}

export interface VolunteerOptions {
  /** Earlier conversation that is context only: its entities are never volunteered. */
  priorContext?: string;
  /** At most this many pages (default from config, 3). */
  maxPages?: number;
  /** The confidence gate, 0..1 (default from config, 0.7). */
  minConfidence?: number;
  /** Keep only the last N turns of the window (1..64). */
  windowTurns?: number;
  /** Logged with each volunteered page, so later reads can be attributed to it. */
  sessionId?: string;
  turn?: number;
}

/** A page volunteered by this brain, as it was logged. */
export interface VolunteeredEvent {
  source_id: string;
  slug: string;
  confidence: number;
  arm: string;
  rationale: string;
  /** Where it was volunteered: `op` for `volunteer()`, `watch`, or a harness name. */
  channel: string;
  session_id: string | null;
  turn: number | null;
  /** When it was logged (ISO 8601). */
  at: string;
}

export interface Brainstream {
  /** The brain's folder. */
  readonly home: string;
  readonly source: string;
  /** Imports every markdown file under `folder` as a page of this source (unchanged files write nothing). */
  importFolder(folder: string): Promise<ImportSummary>;
  /**
   * The pages worth reading for a window of `user: …` / `assistant: …` lines, oldest first,
   * confidence-gated; each is logged as a volunteered event.
   */
  volunteer(window: string, options?: VolunteerOptions): Promise<OneShotJson>;
  /** Calls `listener` for every page volunteered through this brain; returns the unsubscribe. */
  onVolunteered(listener: (event: VolunteeredEvent) => void): () => void;
  /** Closes the database and releases the brain's lock. */
  close(): Promise<void>;
}

/**
 * Opens (creating when needed) the embedded brain in `home` for this process alone. While
 * `brainstream serve` or another process holds it, this fails with code `brain_locked`.
 */
export async function openBrainstream(options: OpenOptions = {}): Promise<Brainstream> {
  const home = resolveHome(options.home);
  const source = options.source ?? (process.env.BRAINSTREAM_SOURCE || 'default');
  let brain: Brain;
  try {
    brain = await openBrain(home);
  } catch (err) {
    if (err instanceof BrainLockedError) throw new BrainstreamError(err.code, err.message, { pid: err.pid });
    throw err;
  }
  // The index follows page writes: it is reloaded on the first volunteer() after one.
  let index: Promise<PageIndex> | null = null;
  const offPages = brain.onCommit((events) => {
    if (events.some((e) => topicOf(e.type) === 'pages')) index = null;
  });
  const caller = ownerCaller(source);
  const context = (): OpContext => ({ brain, caller, home, pageIndex: () => (index ??= brain.pageIndex()) });

  return {
    home,
    source,
    importFolder: (folder) => importPages(brain, folder, source),
    async volunteer(window, o = {}) {
      const params = {
        window,
        prior_context: o.priorContext,
        max_pages: o.maxPages,
        min_confidence: o.minConfidence,
        window_turns: o.windowTurns,
        session_id: o.sessionId,
        turn: o.turn,
      };
      return (await runOperation(context(), 'volunteer_context', params)) as OneShotJson;
    },
    onVolunteered(listener) {
      return brain.onCommit((events) => {
        for (const e of events) {
          if (e.type !== 'page.volunteered') continue;
          const d = (e as Envelope<'page.volunteered'>).data;
          listener({
            source_id: d.source_id,
            slug: d.slug,
            confidence: roundConfidence(d.confidence),
            arm: d.match_arm,
            rationale: d.rationale,
            channel: d.channel,
            session_id: d.session_id,
            turn: d.turn,
            at: e.at,
          });
        }
      });
    },
    async close() {
      offPages();
      await brain.close();
    },
  };
}
