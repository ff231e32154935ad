import pino from 'pino';

/**
 * Structured logs on stderr, quiet by default (`BRAINSTREAM_LOG_LEVEL=info|debug` to see more).
 * Transcript text is never logged; fields that could carry it are redacted anyway.
 */
export const logger = pino(
  {
    name: 'brainstream',
    level: process.env.BRAINSTREAM_LOG_LEVEL ?? 'warn',
    redact: { paths: ['text', '*.text', 'window', 'prompt', 'prior_context'], censor: '[redacted]' },
  },
  pino.destination({ fd: 2, sync: true }),
);
