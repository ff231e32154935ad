import pino from 'pino';
import { loggableError } from './loggable-error.js';

const json = pino.destination({ fd: 2, sync: true });
/** Where log lines go: JSON on stderr, unless readableLogsOnTty() switched to readable lines. */
let sink = (line: string): void => void json.write(line);

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
  { write: (line: string) => sink(line) },
);

/** Readable lines for a person at a terminal; JSON for everything else (files, pipes, collectors). */
const wantsReadableLogs = (stderrIsTTY: boolean, env: NodeJS.ProcessEnv): boolean =>
  stderrIsTTY && env.BRAINSTREAM_LOG_FORMAT !== 'json';

/**
 * Long-running commands (serve --kafka) call this once: on a terminal, log lines become readable
 * (time, level, message, fields) through pino-pretty; `BRAINSTREAM_LOG_FORMAT=json` keeps JSON.
 * Loaded only then, so other commands never pay for it.
 */
export async function readableLogsOnTty(): Promise<void> {
  if (!wantsReadableLogs(process.stderr.isTTY === true, process.env)) return;
  const { default: pretty } = await import('pino-pretty');
  const stream = pretty({ destination: 2, sync: true, colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,name' });
  sink = (line) => void stream.write(line);
}
