import { isAlive } from '../../src/process-alive.js';
import { pingServe } from '../../src/serve-client/autostart.js';
import { eventually } from './eventually.js';

/**
 * Stops the serve answering for `home` (SIGTERM) and waits until its process is gone; nothing
 * when none answers. For serves a test did not spawn itself: the ones commands started.
 */
export async function stopServeOf(home: string): Promise<void> {
  const ping = await pingServe(home);
  if (ping === null) return;
  process.kill(ping.pid, 'SIGTERM');
  await eventually(() => (isAlive(ping.pid) ? undefined : true));
}
