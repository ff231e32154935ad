/** `r<N>`: N is the 1-based version number of a `(source, slug)` row. */
export const revisionToken = (version: number): string => `r${version}`;

/** The version named by a token (`r3`, `R3`), or null when it is not a token. */
export function parseRevisionToken(token: string): number | null {
  const m = /^r([1-9]\d{0,15})$/i.exec(token.trim());
  return m ? Number(m[1]) : null;
}
