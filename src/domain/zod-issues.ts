import type { z } from 'zod';

/** One line naming every field that failed and why (zod's own message is multi-line JSON). */
export function describeZodIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ');
}
