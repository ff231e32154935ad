import { readConfigFile } from '../src/config/config-file.js';
import { memorySettings } from '../src/core-memory/memory-settings.js';
import { logger } from '../src/logger.js';
import { DEFAULT_RETENTION_DAYS, purgeQuietly, type PurgeResult, type PurgeTarget } from './volunteer-purge.js';

export interface PurgeScheduleOptions {
  /** Retention in days, read at every run; default `memory.volunteer.retention_days` of the target's config (90). */
  ttlDays?: () => number;
  /** Delay before the first run (default one minute: soon after start, not during it). */
  firstDelayMs?: number;
  /** Delay between runs (default one day). */
  intervalMs?: number;
  batchSize?: number;
  onResult?: (result: PurgeResult) => void;
}

export interface PurgeSchedule {
  /** Cancels the next run and waits for a run in progress. */
  stop(): Promise<void>;
}

/** The configured retention of a brain; an unreadable config means the default. */
export function retentionDays(home: string | null): number {
  if (home === null) return DEFAULT_RETENTION_DAYS;
  try {
    return memorySettings(readConfigFile(home)).volunteerRetentionDays;
  } catch {
    return DEFAULT_RETENTION_DAYS;
  }
}

/**
 * The daily purge inside a long-running process (serve, watch, serve --kafka): first run soon
 * after start, then once a day. Timers do not keep the process alive; a failed run is logged and
 * never throws.
 */
export function startPurgeSchedule(target: PurgeTarget, options: PurgeScheduleOptions = {}): PurgeSchedule {
  const ttlDays = options.ttlDays ?? (() => retentionDays(target.home));
  const interval = options.intervalMs ?? 86_400_000;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  const schedule = (delay: number): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      running = purgeQuietly(target, { ttlDays: ttlDays(), batchSize: options.batchSize })
        .then((result) => {
          logger.info({ op: 'purge', purged: result.purged, purged_before: result.purgedBefore }, 'scheduled purge done');
          options.onResult?.(result);
        })
        .catch((err: unknown) => logger.warn({ err, op: 'purge' }, 'scheduled purge failed'))
        .finally(() => {
          running = null;
          schedule(interval);
        });
    }, delay);
    timer.unref();
  };
  schedule(options.firstDelayMs ?? 60_000);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
