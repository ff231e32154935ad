const MAX_SESSION_START_CHARS = 10_000;

export interface SessionStartParts {
  core: string;
  notices: string[];
  digest: string;
}

const assemble = (core: string, notices: readonly string[], digestLines: readonly string[]): string => {
  const parts = [core, notices.join('\n'), digestLines.join('\n').trimEnd()].filter((p) => p !== '');
  return parts.length === 0 ? '' : `${parts.join('\n\n')}\n`;
};

/**
 * Plain-text SessionStart output within 10 000 characters: core is never trimmed; whole
 * trailing lines of the digest go first, then notices. "" when there is nothing to say.
 */
export function sessionStartText(p: SessionStartParts, cap = MAX_SESSION_START_CHARS): string {
  let digest = p.digest === '' ? [] : p.digest.split('\n');
  let notices = [...p.notices];
  let text = assemble(p.core, notices, digest);
  while (text.length > cap && digest.length > 0) text = assemble(p.core, notices, (digest = digest.slice(0, -1)));
  while (text.length > cap && notices.length > 0) text = assemble(p.core, (notices = notices.slice(0, -1)), digest);
  return text;
}
