/**
 * Who is asking. The owner is the local CLI on the brain host (or a hook holding serve's
 * secret); remote callers (MCP, Kafka traffic, `--as remote`) get the same refusals everywhere.
 */
export interface Caller {
  kind: 'owner' | 'remote';
  /** The session / bound (write) source. */
  source: string;
  /** Readable sources; null = every source (owner). */
  grant: string[] | null;
  /** For request replay keys: `owner`, `cli-remote`, or an MCP client id. */
  identity: string;
}

export const ownerCaller = (source = 'default'): Caller => ({ kind: 'owner', source, grant: null, identity: 'owner' });

export const remoteCaller = (source: string, grant?: string[], identity = 'cli-remote'): Caller => ({
  kind: 'remote',
  source,
  grant: grant && grant.length > 0 ? grant : [source],
  identity,
});

/** Sources a caller may read, given the sources that exist. */
export function readableSources(caller: Caller, existing: readonly string[]): string[] {
  return caller.grant === null ? [...existing] : caller.grant.filter((s) => existing.includes(s) || s === caller.source);
}

/** The bound source is always readable: a caller may read what it may write. */
export const canRead = (caller: Caller, source: string): boolean =>
  caller.grant === null || caller.grant.includes(source) || source === caller.source;
