import type { Command } from 'commander';
import { ownerCaller, remoteCaller, type Caller } from '../caller.js';
import { resolveHome } from '../home.js';
import { UsageError } from '../errors.js';
import { parseSourceList, resolveSource } from './flags.js';

export interface GlobalOptions {
  home?: string;
  as?: string;
  grant?: string;
  debug?: boolean;
  source?: string;
  json?: boolean;
}

export interface CommandContext {
  home: string;
  caller: Caller;
  json: boolean;
  debug: boolean;
  /** True when `--source` was given explicitly (some commands filter only then). */
  sourceGiven: boolean;
}

/**
 * The global flags as `node:util` parseArgs reads them, for the lean paths that answer before the
 * program (and commander) load.
 */
export const LEAN_GLOBAL_OPTIONS = {
  home: { type: 'string' },
  as: { type: 'string' },
  grant: { type: 'string' },
  source: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** Who is calling, from `--as`, `--source` and `--grant`; a bad value is a usage error. */
export function callerOf(opts: Pick<GlobalOptions, 'as' | 'source' | 'grant'>): Caller {
  const source = resolveSource(opts.source);
  const as = opts.as ?? 'owner';
  if (as !== 'owner' && as !== 'remote') throw new UsageError(`--as expects owner or remote, got ${JSON.stringify(as)}`);
  const grant = opts.grant === undefined ? undefined : parseSourceList('--grant', opts.grant);
  return as === 'owner' ? ownerCaller(source) : remoteCaller(source, grant);
}

/** Resolves the global flags (and the command's `--source`) into who is calling and where. */
export function commandContext(cmd: Command): CommandContext {
  const opts = cmd.optsWithGlobals<GlobalOptions>();
  return { home: resolveHome(opts.home), caller: callerOf(opts), json: opts.json === true, debug: opts.debug === true, sourceGiven: opts.source !== undefined };
}
