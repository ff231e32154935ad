import pino from 'pino';
import { loggableError } from './log/loggable-error.js';

/**
 * Structured logs on stderr, quiet by default (`BRAINSTREAM_LOG_LEVEL=info|debug` to see more).
 * Transcript text is never logged; fields that could carry it are redacted anyway, and an `err`
 * keeps only its kind, message and code (the stack with --debug).
 */
export const logger = pino(
  {
    name: 'brainstream',
    level: process.env.BRAINSTREAM_LOG_LEVEL ?? 'warn',
    redact: { paths: ['text', '*.text', 'window', 'prompt', 'prior_context'], censor: '[redacted]' },
    serializers: { err: (err: unknown) => loggableError(err) },
  },
  pino.destination({ fd: 2, sync: true }),
);
