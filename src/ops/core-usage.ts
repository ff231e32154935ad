import type { Brain } from '../brain/brain.js';
import { brainConfig } from '../config/brain-config.js';
import { measureCore } from '../core-memory/core-budget.js';
import { memorySettings } from '../core-memory/memory-settings.js';
import { utcDay } from '../pages/facts-table.js';
import { loadCoreRows } from '../../projections/pages-queries.js';

export interface CoreUsage {
  used: number;
  max: number;
  count: number;
}

/** Brain-wide core size and count against the effective budget (`core <used>/<max>`). */
export async function coreUsage(brain: Brain, now: Date): Promise<CoreUsage> {
  const measure = measureCore(await loadCoreRows(brain.db), utcDay(now));
  return { used: measure.chars, max: memorySettings(brainConfig(brain)).maxChars, count: measure.count };
}
