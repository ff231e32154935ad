import fc from 'fast-check';

/**
 * How much each property is tried: a fixed seed and a modest count in `npm test` (seconds, and
 * the same cases every run, so a failure reproduces), many more with `npm run fuzz`
 * (`FUZZ_RUNS`, and `FUZZ_SEED` to explore other cases or replay a reported one).
 */
export function fuzzRuns(base = 200): fc.Parameters<unknown> {
  const runs = Number(process.env.FUZZ_RUNS);
  const seed = Number(process.env.FUZZ_SEED);
  return {
    seed: Number.isSafeInteger(seed) ? seed : 20261206,
    numRuns: Number.isSafeInteger(runs) && runs > 0 ? Math.max(base, runs) : base,
  };
}

/** Text as it arrives from outside: any code units, lone surrogates, controls and line breaks included. */
export const hostileText = (maxLength = 200): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ unit: 'binary', maxLength }),
    fc.string({ unit: 'grapheme', maxLength }),
    fc.string({ unit: fc.constantFrom('a', 'Z', ' ', ':', '\n', '\r', '\u2028', '\u0000', '\u001b', "'", '’', 'ж', '😀', '\ud800', '-', '/', '\\', '.', '"', '{', '}', '[', ']', '#', '|', '`'), maxLength }),
  );

/** Bytes as they arrive on a pipe: any bytes, valid UTF-8 or not. */
export const hostileBytes = (maxLength = 200): fc.Arbitrary<Uint8Array> =>
  fc.oneof(fc.uint8Array({ maxLength }), hostileText(maxLength).map((s) => new TextEncoder().encode(s)));

/** Values JSON can carry, hostile strings included, for replacing parts of a real payload. */
const hostileJson = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    hostileText(60),
    fc.constantFrom(null, true, 0, -1, 1e308, '', [], {}, [null], { type: 'text' }, { type: 'tool_use' }, { text: null }),
  );

/** One change to a JSON value: the node at `path` (indexes into keys or items, wrapped) is replaced or deleted. */
interface JsonEdit {
  path: number[];
  replacement: unknown;
  remove: boolean;
}

function applyEdit(value: unknown, edit: JsonEdit, depth = 0): unknown {
  if (depth === edit.path.length || value === null || typeof value !== 'object') return edit.replacement;
  const keys = Object.keys(value);
  if (keys.length === 0) return edit.replacement;
  const key = keys[edit.path[depth]! % keys.length]!;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...value };
  const atEnd = depth + 1 === edit.path.length;
  if (atEnd && edit.remove) {
    if (Array.isArray(copy)) copy.splice(Number(key), 1);
    else delete copy[key];
    return copy;
  }
  (copy as Record<string, unknown>)[key] = applyEdit((value as Record<string, unknown>)[key], edit, depth + 1);
  return copy;
}

/** A real payload with a few of its parts replaced by hostile values or removed. */
export const mutatedJson = (value: unknown): fc.Arbitrary<unknown> =>
  fc
    .array(fc.record({ path: fc.array(fc.nat(50), { minLength: 1, maxLength: 4 }), replacement: hostileJson(), remove: fc.boolean() }), { maxLength: 4 })
    .map((edits) => edits.reduce<unknown>((v, e) => applyEdit(v, e), value));
