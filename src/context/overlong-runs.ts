/**
 * The longest run of whitespace, or of anything else, that entity extraction reads as it is. No
 * name is anywhere near this long; a longer run is pasted data (a blob, a minified file, padding).
 * The extraction expressions need stack in proportion to the run they cross when the text holds
 * characters outside Latin-1, and overflow it on a few megabytes; under this length they stay far
 * from that.
 */
export const MAX_RUN_CHARS = 65_536;

/** Stands in for what is not read: no extraction expression matches it, and it is no whitespace. */
const FILLER = '\u0000';

/** The code units `\s` matches (JavaScript's whitespace and line terminators). */
function isWhitespace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * `text` with every run longer than `max` code units filled in, so nothing is extracted from it
 * and no expression crosses it: a run of non-whitespace becomes filler, a run of whitespace keeps
 * its first and last character (words around it stay apart) with filler between. Every character
 * keeps its offset, so mention spans stay right. Text no longer than `max` is returned as it is.
 */
export function withoutOverlongRuns(text: string, max = MAX_RUN_CHARS): string {
  if (text.length <= max) return text;
  const parts: string[] = [];
  let kept = 0;
  let runStart = 0;
  let runIsSpace = isWhitespace(text.charCodeAt(0));
  for (let i = 1; i <= text.length; i++) {
    const space = i < text.length ? isWhitespace(text.charCodeAt(i)) : !runIsSpace;
    if (space === runIsSpace) continue;
    const length = i - runStart;
    if (length > max) {
      parts.push(text.slice(kept, runStart));
      parts.push(runIsSpace ? `${text[runStart]}${FILLER.repeat(length - 2)}${text[i - 1]}` : FILLER.repeat(length));
      kept = i;
    }
    runStart = i;
    runIsSpace = space;
  }
  if (kept === 0) return text;
  parts.push(text.slice(kept));
  return parts.join('');
}
