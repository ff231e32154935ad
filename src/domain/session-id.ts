/**
 * Session ids: 1–256 characters. Every channel (CLI flags, hooks, MCP, the socket, Kafka lines)
 * cuts a longer one here instead of refusing it, so one conversation keeps one id everywhere.
 * Kept free of dependencies: the bundled hook client imports it too.
 */
export const MAX_SESSION_ID_CHARS = 256;

/** A claimed session id as stored: cut to 256 characters; anything else, or empty, is none. */
export const sessionIdOf = (id: unknown): string | null => (typeof id === 'string' && id !== '' ? id.slice(0, MAX_SESSION_ID_CHARS) : null);
