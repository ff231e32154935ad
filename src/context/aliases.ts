import { normalizeAlias } from './strings.js';

/**
 * The alias keys a page declares (spec §1): frontmatter `aliases` as a list, a string, or a
 * comma-separated string; each entry → normalizeAlias; empties and duplicates dropped.
 * Numbers in a list are read as their text (YAML turns `[1984]` into a number).
 */
export function aliasEntries(aliases: unknown): string[] {
  let raw: unknown[];
  if (typeof aliases === 'string') raw = aliases.split(',');
  else if (Array.isArray(aliases)) raw = aliases;
  else return [];
  const out: string[] = [];
  for (const entry of raw) {
    const text = typeof entry === 'string' ? entry : typeof entry === 'number' && Number.isFinite(entry) ? String(entry) : null;
    if (text === null) continue;
    const trimmed = text.trim();
    if (trimmed !== '') out.push(trimmed);
  }
  return out;
}

/** Distinct non-empty alias keys of a frontmatter `aliases` value, in declaration order. */
export function aliasKeys(aliases: unknown): string[] {
  const keys: string[] = [];
  for (const entry of aliasEntries(aliases)) {
    const key = normalizeAlias(entry);
    if (key !== '' && !keys.includes(key)) keys.push(key);
  }
  return keys;
}
