/** Fence markers (gbrain-compatible: three dashes after `<!`). */
export const FENCE_MARKERS = {
  takes: { begin: '<!--- gbrain:takes:begin -->', end: '<!--- gbrain:takes:end -->' },
  facts: { begin: '<!--- gbrain:facts:begin -->', end: '<!--- gbrain:facts:end -->' },
} as const;

export type FenceKind = keyof typeof FENCE_MARKERS;

export interface FenceSpan {
  kind: FenceKind;
  /** Index of the begin marker. */
  start: number;
  /** Index just past the end marker, or the text length when unterminated. */
  end: number;
  /** Text between the markers. */
  inner: string;
  terminated: boolean;
}

/** Every fence of `kind` in text order; an unterminated fence runs to the end of the text. */
export function findFences(text: string, kind: FenceKind): FenceSpan[] {
  const { begin, end } = FENCE_MARKERS[kind];
  const spans: FenceSpan[] = [];
  let from = 0;
  for (;;) {
    const start = text.indexOf(begin, from);
    if (start < 0) return spans;
    const innerStart = start + begin.length;
    const close = text.indexOf(end, innerStart);
    if (close < 0) {
      spans.push({ kind, start, end: text.length, inner: text.slice(innerStart), terminated: false });
      return spans;
    }
    spans.push({ kind, start, end: close + end.length, inner: text.slice(innerStart, close), terminated: true });
    from = close + end.length;
  }
}

/** Replaces every fence of `kind` by `replace(span)` (default: removes it, markers included). */
export function replaceFences(text: string, kind: FenceKind, replace: (span: FenceSpan) => string = () => ''): string {
  const spans = findFences(text, kind);
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start) + replace(span);
    at = span.end;
  }
  return out + text.slice(at);
}

/** Removes takes and facts fences alike: what synopses and untrusted readers get. */
export function stripAllFences(text: string): string {
  // Kind by kind, not in text order: every takes fence first, then every facts fence in what is
  // left. Well-formed fences come out the same either way. When malformed fences overlap, this
  // never keeps text a text-order pass would remove, and sometimes removes more (a facts fence
  // whose end marker lay inside a takes fence runs to the end of the text). Removing too much
  // only shortens a synopsis; removing too little would show fence rows.
  return replaceFences(replaceFences(text, 'takes'), 'facts');
}
