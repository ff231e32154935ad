import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** Checks a presented secret against serve's in constant time (both hashed, so lengths never leak). */
export function secretChecker(secret: string): (presented: unknown) => boolean {
  const expected = digest(secret);
  return (presented) => typeof presented === 'string' && timingSafeEqual(digest(presented), expected);
}
