/** Longest error message a log line carries; driver messages are short, anything longer is noise. */
const MAX_MESSAGE = 500;

/** Stacks are for debugging: `--debug` on the command line, or a debug log level. */
export function debugging(argv: readonly string[] = process.argv.slice(2), level = process.env.BRAINSTREAM_LOG_LEVEL): boolean {
  return argv.includes('--debug') || level === 'debug' || level === 'trace';
}

/**
 * What a log line may say about an error: its kind, message and code, plus the stack when
 * debugging. Never the other fields a driver attaches: database errors carry the failed
 * statement's parameters, which can hold transcript text (logs must never hold conversation text).
 */
export function loggableError(err: unknown, withStack = debugging()): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: String(err).slice(0, MAX_MESSAGE) };
  const code = (err as { code?: unknown }).code;
  return {
    type: err.name,
    message: err.message.slice(0, MAX_MESSAGE),
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(withStack && err.stack ? { stack: err.stack } : {}),
  };
}
