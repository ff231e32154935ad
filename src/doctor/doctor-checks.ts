import type { DoctorCheckDef } from './doctor-check.js';
import { hookLaneCheck } from './hook-lane.js';
import { homePermissionsCheck } from './home-permissions.js';
import { remoteWritesCheck } from './remote-writes.js';
import { serveCheck } from './serve-check.js';
import { volunteerChannelsCheck } from './volunteer-channels.js';

const checks: DoctorCheckDef[] = [homePermissionsCheck, serveCheck, volunteerChannelsCheck, hookLaneCheck, remoteWritesCheck];

/** Adds a check (features register theirs, e.g. `core_memory`); a name registers once. */
export function registerDoctorCheck(check: DoctorCheckDef): void {
  const at = checks.findIndex((c) => c.name === check.name);
  if (at >= 0) checks[at] = check;
  else checks.push(check);
}

export const doctorChecks = (): readonly DoctorCheckDef[] => checks;
