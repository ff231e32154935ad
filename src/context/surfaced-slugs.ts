/**
 * A session's surfaced slugs are a plain array (its state is JSON), and grow by a page or two per
 * turn over a session of thousands of turns. Checking a candidate against the array, and copying
 * it on every turn, would make each turn cost in proportion to the session's length; instead each
 * list has a set beside it, and the list that extends it takes that set over.
 */
const sets = new WeakMap<readonly string[], Set<string>>();

/** The slugs of `list` as a set (built once per list; a list is never changed in place). */
export function surfacedSet(list: readonly string[]): ReadonlySet<string> {
  let set = sets.get(list);
  if (!set) {
    set = new Set(list);
    sets.set(list, set);
  }
  return set;
}

/**
 * `list` followed by the slugs of `more` it does not hold yet, in order, each once: `list`
 * itself when there are none. The new list takes over the set of `list`, which builds a set of
 * its own again if it is ever asked.
 */
export function extendSurfaced(list: string[], more: Iterable<string>): string[] {
  let set = sets.get(list);
  let added: string[] | null = null;
  for (const slug of more) {
    set ??= new Set(list);
    if (set.has(slug)) continue;
    set.add(slug);
    (added ??= []).push(slug);
  }
  if (added === null) {
    if (set && !sets.has(list)) sets.set(list, set);
    return list;
  }
  const next = list.concat(added);
  sets.delete(list);
  sets.set(next, set!);
  return next;
}
