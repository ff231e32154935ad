import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `../shared/<name>` next to the repository root (test/unit/eval → three levels up). */
export function sharedBenchDir(name: string): { dir: string; exists: boolean } {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
  const dir = resolve(root, '..', 'shared', name);
  const exists = existsSync(resolve(dir, 'fixtures')) && existsSync(resolve(dir, 'gold'));
  if (!exists) console.warn(`[eval] benchmark folder missing: ${dir} — its floor tests are skipped`);
  return { dir, exists };
}
