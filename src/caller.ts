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

/**
 * A remote caller reads exactly its grant (by default its bound source). A grant that leaves the
 * bound source out makes that source write-only for the caller: it may add pages there but never
 * read, replace or delete one, so a drop-box caller learns nothing of what the source holds.
 */
export const canRead = (caller: Caller, source: string): boolean => caller.grant === null || caller.grant.includes(source);
