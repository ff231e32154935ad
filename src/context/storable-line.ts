/**
 * A NUL cannot be stored (PostgreSQL text and JSON reject it), so it becomes U+FFFD, the same
 * character an invalid UTF-8 byte of the line already decoded to: neither is a word character.
 */
export const storableLine = (line: string): string => (line.includes('\u0000') ? line.replace(/\u0000/g, '\uFFFD') : line);
