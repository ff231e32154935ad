/** The PostgreSQL schema of a distributed deployment unless `--schema` or BRAINSTREAM_PG_SCHEMA names another. */
export const DEFAULT_PG_SCHEMA = 'brainstream';

/**
 * Schema names brainstream accepts: an unquoted PostgreSQL identifier in lower case, so the name
 * an operator types is the name `\dn` shows and no quoting rule can surprise anyone.
 */
export const isValidSchemaName = (name: string): boolean => /^[a-z_][a-z0-9_]{0,62}$/.test(name) && !name.startsWith('pg_');

/** An identifier, double-quoted. */
export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;
