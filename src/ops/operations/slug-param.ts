import { z } from 'zod';
import { slugProblem } from '../../pages/import-paths.js';
import { sessionIdOf, SourceId } from '../../domain/event-schemas.js';

/** A page slug: lower-cased, then refused when empty, absolute, with `..`, backslashes or controls. */
export const SlugParam = z
  .string()
  .transform((s) => s.toLowerCase())
  .superRefine((s, ctx) => {
    const problem = slugProblem(s);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });

export const SourceParam = SourceId;

/** Session ids are kept to 256 characters. */
export const SessionParam = z
  .string()
  .nullable()
  .optional()
  .transform(sessionIdOf);
