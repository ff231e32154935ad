import { chmodSync, copyFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Post-build step: copies the fast hook client, and replaces `dist/src/hooks/hook-main.js` by one self-contained file. The hook
 * starts on every prompt and loading ~35 small ES modules costs about as much CPU as the hook's
 * own work; one file loads in a fraction of that. Opening the brain (the session-start fallback)
 * stays a separate module loaded on demand. Without the bundler the modular build is kept: it
 * behaves the same, only starts slower.
 */
const hooks = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'hooks');
const entry = join(hooks, 'hook-main.js');

// The fast hook client (bash) sits beside the built hook, where bootstrap registers it from.
const fastClient = join(hooks, 'fast-hook.sh');
copyFileSync(join(hooks, '..', '..', '..', 'src', 'hooks', 'fast-hook.sh'), fastClient);
chmodSync(fastClient, 0o755);

let rolldown: typeof import('rolldown').rolldown;
try {
  ({ rolldown } = await import('rolldown'));
} catch {
  process.stderr.write('bundle-hook: rolldown is not installed; keeping the modular hook build\n');
  process.exit(0);
}

const bundle = await rolldown({
  input: entry,
  platform: 'node',
  external: (id) => id.startsWith('node:') || /(^|\/)core-direct\.js$/.test(id),
  logLevel: 'warn',
});
const tmp = join(hooks, 'hook-main.bundle.tmp.js');
await bundle.write({ file: tmp, format: 'esm', codeSplitting: false, sourcemap: false });
await bundle.close();
renameSync(tmp, entry);
rmSync(`${entry}.map`, { force: true });
