import { chmodSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The launcher bootstrap registers instead of a Node binary and an install path. It looks the
 * installation up each time it runs, so a Node upgrade, a reinstall or a moved package keeps
 * the harness's hooks and MCP server working.
 */
const LAUNCHER = `#!/usr/bin/env bash
# Written by \`brainstream bootstrap\` (run it again to rewrite this file).
# Harness hooks and the brainstream MCP server start brainstream through this file. It looks
# the installation up every time it runs, so a Node upgrade or a reinstalled or moved package
# keeps them working:
#   1. \`brainstream\` on the PATH (a global install, a version manager's shim), else
#   2. the installation that last ran bootstrap (recorded next to this file).
# Node is the \`node\` on the PATH, else the one recorded with it.
# usage: brainstream-launch [--fast] ARGS...   (--fast: hook events go through the fast client)
fast=0
[ "\${1:-}" = --fast ] && { fast=1; shift; }
here=\${BASH_SOURCE[0]%/*}
main=
if bin=$(command -v brainstream 2>/dev/null); then
  main=$(readlink -f -- "$bin" 2>/dev/null || realpath -- "$bin" 2>/dev/null || printf '%s' "$bin")
fi
[ -n "$main" ] && [ -f "$main" ] || { main=; IFS= read -r main < "$here/install-main" 2>/dev/null; }
node=$(command -v node 2>/dev/null) || { node=; IFS= read -r node < "$here/install-node" 2>/dev/null; }
if [ -z "$main" ] || [ ! -f "$main" ]; then
  # No installation: a hook fails open (exit 0, nothing printed); anything else says so.
  case " $* " in *" hook "*) exit 0 ;; esac
  echo "brainstream: not_installed: no brainstream installation found; install it, then run brainstream bootstrap again" >&2
  exit 1
fi
case $main in
  */cli/main.js) ;;
  # A wrapper that is not the package's own entry (a shim): run it as it is.
  *) exec "$main" "$@" ;;
esac
[ -n "$node" ] || { case " $* " in *" hook "*) exit 0 ;; esac; echo "brainstream: no_node: node not found" >&2; exit 1; }
client=\${main%/cli/main.js}/hooks/fast-hook.sh
[ "$fast" = 1 ] && [ -f "$client" ] && exec bash "$client" "$node" "$main" "$@"
exec "$node" "$main" "$@"
`;

const launcherDir = (home: string): string => join(home, 'bin');
const launcherPath = (home: string): string => join(launcherDir(home), 'brainstream-launch');

function writeAtomic(path: string, text: string, mode: number): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

/**
 * Writes the launcher and records this installation (its entry and Node) as the fallback for a
 * harness whose PATH has no `brainstream`. Returns the launcher's path.
 */
export function writeLauncher(home: string, install: { main: string; node: string }): string {
  const dir = launcherDir(home);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeAtomic(join(dir, 'install-main'), `${install.main}\n`, 0o600);
  writeAtomic(join(dir, 'install-node'), `${install.node}\n`, 0o600);
  const path = launcherPath(home);
  writeAtomic(path, LAUNCHER, 0o700);
  return path;
}

/** A bash for the launcher, or null (Windows, or no bash where it usually is). */
export function findBash(): string | null {
  if (process.platform === 'win32') return null;
  return ['/bin/bash', '/usr/bin/bash', '/usr/local/bin/bash', '/opt/homebrew/bin/bash'].find((p) => existsSync(p)) ?? null;
}
