/**
 * The alias entries a page declares: frontmatter `aliases` as a list of strings, a
 * string, or a comma-separated string; entries trimmed, empties dropped. Anything else declares
 * nothing: a list entry that is not a string (YAML keeps `[1984]` a number)
 * is skipped like an empty one, and a value of another type declares no alias at all.
 */
export function aliasEntries(aliases: unknown): string[] {
  let raw: unknown[];
  if (typeof aliases === 'string') raw = aliases.split(',');
  else if (Array.isArray(aliases)) raw = aliases;
  else return [];
  const out: string[] = [];
  for (const entry of raw) {
    if (typeof entry !== 'string') continue;
    const trimmed = entry.trim();
    if (trimmed !== '') out.push(trimmed);
  }
  return out;
}
