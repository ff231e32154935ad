/**
 * Fenced code blocks (CommonMark style): an opening line of 3+ backticks or tildes
 * (indented by at most 3 spaces) runs to a closing line of the same character, at least as
 * long, with nothing but whitespace after it; an unclosed block runs to the end.
 */
const OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** For each line, whether it belongs to a fenced code block (fence lines included). */
export function codeFenceMask(lines: readonly string[]): boolean[] {
  const mask: boolean[] = [];
  let fence: { char: string; length: number } | null = null;
  for (const line of lines) {
    if (fence) {
      mask.push(true);
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
      if (close && close[1][0] === fence.char && close[1].length >= fence.length) fence = null;
      continue;
    }
    const open = OPEN.exec(line);
    // A backtick fence's info string may not contain backticks (it would be inline code).
    if (open && !(open[1][0] === '`' && open[2].includes('`'))) {
      fence = { char: open[1][0], length: open[1].length };
      mask.push(true);
      continue;
    }
    mask.push(false);
  }
  return mask;
}
