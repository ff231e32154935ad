import { logger } from '../logger.js';
import type { DoctorCheck, DoctorContext } from './doctor-check.js';
import { doctorChecks } from './doctor-checks.js';

/** Runs every check in order; a check that throws is reported as `fail`, never stops the others. */
export async function runDoctor(ctx: DoctorContext): Promise<DoctorCheck[]> {
  const out: DoctorCheck[] = [];
  for (const check of doctorChecks()) {
    try {
      out.push(await check.run(ctx));
    } catch (err) {
      logger.warn({ err, check: check.name }, 'doctor check failed');
      out.push({ name: check.name, status: 'fail', message: `check failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}` });
    }
  }
  return out;
}

/** Human report: one `<status>  <name>: <message>` line per check. */
export const renderDoctor = (checks: readonly DoctorCheck[]): string => checks.map((c) => `${c.status}  ${c.name}: ${c.message}\n`).join('');

export const doctorFailed = (checks: readonly DoctorCheck[]): boolean => checks.some((c) => c.status === 'fail');
