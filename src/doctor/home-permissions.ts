import { existsSync, statSync } from 'node:fs';
import { homeAccess } from '../home.js';
import { openEntries } from '../owner-only.js';
import type { DoctorCheck, DoctorCheckDef } from './doctor-check.js';

const SHOWN = 3;

/** The home and everything in it must be this user's alone: others could read private pages and facts. */
export const homePermissionsCheck: DoctorCheckDef = {
  name: 'home_permissions',
  async run(ctx): Promise<DoctorCheck> {
    const access = homeAccess(existsSync(ctx.home) ? statSync(ctx.home) : null, process.getuid?.() ?? -1);
    if (access.kind === 'absent') return { name: 'home_permissions', status: 'ok', message: `no home folder at ${ctx.home}` };
    if (access.kind === 'open_ours' || access.kind === 'open_theirs') {
      return {
        name: 'home_permissions',
        status: 'fail',
        message: `other users can get into ${ctx.home} (mode ${access.mode.toString(8)}): run chmod 700 ${ctx.home}`,
      };
    }
    const open = openEntries(ctx.home, 100);
    if (open.length === 0) return { name: 'home_permissions', status: 'ok', message: `${ctx.home} is yours alone (0700)` };
    const named = open.slice(0, SHOWN).map((e) => `${e.path} (mode ${e.mode.toString(8)}, uid ${e.uid})`).join(', ');
    return {
      name: 'home_permissions',
      status: 'warn',
      message: `${open.length}${open.length >= 100 ? '+' : ''} entries in ${ctx.home} are open to other users or not yours: ${named} — run chmod -R go-rwx ${ctx.home}`,
    };
  },
};
