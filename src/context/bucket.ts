/**
 * A map value holding one item, a small array, or (past SET_AT items) a Set. Most keys name
 * exactly one page, so the single case costs no container (memory per page matters at a
 * million pages); a Set keeps inserts and removals O(1) for crowded keys (slug tail `index`).
 */
export type Bucket<T> = T | T[] | Set<T>;

const SET_AT = 16;

/** `b` with `item` added; callers never add the same item twice. May return a new container. */
function bucketWith<T extends object>(b: Bucket<T> | undefined, item: T): Bucket<T> {
  if (b === undefined) return item;
  if (b instanceof Set) return b.add(item);
  if (Array.isArray(b)) {
    if (b.length < SET_AT) {
      b.push(item);
      return b;
    }
    return new Set([...b, item]);
  }
  return [b, item];
}

/** `b` without `item`; undefined when nothing is left. */
function bucketWithout<T extends object>(b: Bucket<T> | undefined, item: T): Bucket<T> | undefined {
  if (b === undefined) return undefined;
  if (b instanceof Set) {
    b.delete(item);
    return b.size === 0 ? undefined : b;
  }
  if (Array.isArray(b)) {
    const at = b.indexOf(item);
    if (at >= 0) b.splice(at, 1);
    return b.length === 0 ? undefined : b.length === 1 ? b[0] : b;
  }
  return b === item ? undefined : b;
}

export function bucketAdd<K, T extends object>(map: Map<K, Bucket<T>>, key: K, item: T): void {
  map.set(key, bucketWith(map.get(key), item));
}

export function bucketRemove<K, T extends object>(map: Map<K, Bucket<T>>, key: K, item: T): void {
  const left = bucketWithout(map.get(key), item);
  if (left === undefined) map.delete(key);
  else map.set(key, left);
}

const NONE: readonly never[] = [];

/** The items of a bucket (no allocation for a miss). */
export function bucketItems<T extends object>(b: Bucket<T> | undefined): Iterable<T> {
  if (b === undefined) return NONE;
  if (b instanceof Set || Array.isArray(b)) return b;
  return [b];
}
