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
