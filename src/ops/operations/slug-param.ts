import { z } from 'zod';
import { slugProblem } from '../../pages/import-paths.js';
import { SourceId } from '../../domain/event-schemas.js';
import { MAX_SESSION_ID_CHARS, sessionIdOf } from '../../domain/session-id.js';

/** A page slug: lower-cased, then refused when empty, absolute, with `..`, backslashes or controls. */
export const SlugParam = z
  .string()
  .transform((s) => s.toLowerCase())
  .superRefine((s, ctx) => {
    const problem = slugProblem(s);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe('Page slug, e.g. "people/alice-example" (relative path without .md; lower-cased).');

export const SourceParam = SourceId.describe('Source id: 1–32 of [a-z0-9-]. Default: your bound source.');

/** Session ids are kept to 256 characters. */
export const SessionParam = z
  .string()
  .nullable()
  .optional()
  .transform(sessionIdOf)
  .describe(`Your session id (longer than ${MAX_SESSION_ID_CHARS} characters is cut), so reads can be attributed to what was volunteered.`);

/** Pieces of results shared by several operations. */
export const ResultSourceId = z.string().describe('Source id of the page.');
export const ResultSlug = z.string().describe('Page slug.');
export const PROTOCOL_VERSION = z.literal(1).describe('Result format version (1).');
