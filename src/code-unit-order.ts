/**
 * Orders strings by UTF-16 code units, as the specs require wherever output order is fixed: the
 * same on every machine, whatever collation SQL or the locale would apply.
 */
export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
