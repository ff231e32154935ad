import { readConfigFile } from '../config/config-file.js';
import { coreDoctorCheck, type CoreDoctorCheck } from '../core-memory/core-doctor.js';
import type { Db } from '../db/db.js';
import type { DoctorCheckDef } from './doctor-check.js';
import { utcDay } from '../pages/facts-table.js';
import { compiledFilesForDoctor } from '../ops/compiled-registry.js';
import { loadCoreRows } from '../../projections/pages-queries.js';
import { runningWriters } from '../ops/running-writers.js';

export interface CoreMemoryDoctorInput {
  home: string;
  db: Db;
  /** Sources whose pages findings may name; null = every source (owner). */
  sources: readonly string[] | null;
  now: Date;
}

/**
 * Doctor check `core_memory` with its real inputs: every core row (the budget
 * is brain-wide), the stored config, the files in `<home>/compiled.json` with the revision each
 * carries now, and the running serve/watch as its ping describes it. Never `fail`.
 */
export async function coreMemoryDoctor(input: CoreMemoryDoctorInput): Promise<CoreDoctorCheck> {
  return coreDoctorCheck({
    config: readConfigFile(input.home),
    pages: await loadCoreRows(input.db),
    visible: input.sources,
    compiledFiles: compiledFilesForDoctor(input.home),
    writers: await runningWriters(input.home),
    today: utcDay(input.now),
  });
}

/** The check as the doctor framework lists it (`registerDoctorCheck(coreMemoryCheck)`). */
export const coreMemoryCheck: DoctorCheckDef = { name: 'core_memory', run: (ctx) => coreMemoryDoctor(ctx) };
