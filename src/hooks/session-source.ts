const SOURCE_ID = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;

/** A source id as the brain accepts it (lowercase letters, digits, inner hyphens, ≤ 32). */
export const isSourceId = (s: unknown): s is string => typeof s === 'string' && SOURCE_ID.test(s);

/** The owner session's source: BRAINSTREAM_SOURCE when it is a valid id, else `default`. */
export const sessionSourceOf = (env: NodeJS.ProcessEnv = process.env): string => (isSourceId(env.BRAINSTREAM_SOURCE) ? env.BRAINSTREAM_SOURCE : 'default');
