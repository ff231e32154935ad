/**
 * A runtime failure the user can act on: exit 1 and one line `brainstream: <code>: <message>`.
 * `details` are extra fields of the JSON error envelope.
 */
export class BrainstreamError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'BrainstreamError';
  }
}

/** A bad command line (unknown flag, missing or bad value): exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
