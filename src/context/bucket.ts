/**
 * A map value holding one item, a small array, or (past SET_AT items) a Set. Most keys name
 * exactly one page, so the single case costs no container (memory per page matters at a
 * million pages); a Set keeps inserts and removals O(1) for crowded keys (slug tail `index`).
 */
export type Bucket<T> = T | T[] | Set<T>;

const SET_AT = 16;

/** Adds `item` under `key`; callers never add the same item twice under one key. */
export function bucketAdd<K, T extends object>(map: Map<K, Bucket<T>>, key: K, item: T): void {
  const found = map.get(key);
  if (found === undefined) map.set(key, item);
  else if (found instanceof Set) found.add(item);
  else if (Array.isArray(found)) {
    if (found.length < SET_AT) found.push(item);
    else map.set(key, new Set([...found, item]));
  } else map.set(key, [found, item]);
}

export function bucketRemove<K, T extends object>(map: Map<K, Bucket<T>>, key: K, item: T): void {
  const found = map.get(key);
  if (found === undefined) return;
  if (found instanceof Set) {
    found.delete(item);
    if (found.size === 0) map.delete(key);
  } else if (Array.isArray(found)) {
    const at = found.indexOf(item);
    if (at < 0) return;
    found.splice(at, 1);
    if (found.length === 1) map.set(key, found[0]);
  } else if (found === item) map.delete(key);
}

const NONE: readonly never[] = [];

/** The items of a bucket (no allocation for a miss). */
export function bucketItems<T extends object>(b: Bucket<T> | undefined): Iterable<T> {
  if (b === undefined) return NONE;
  if (b instanceof Set || Array.isArray(b)) return b;
  return [b];
}
