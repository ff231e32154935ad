/** A fact id as given (`12`, `#12`), or null when it cannot be one. */
export function parseFactId(raw: string | number): number | null {
  const text = String(raw).trim().replace(/^#/, '');
  return /^[1-9]\d{0,15}$/.test(text) ? Number(text) : null;
}
