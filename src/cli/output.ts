import { cliIo } from '../command-io.js';

export { setExitCode } from '../command-io.js';

/**
 * The CLI's only writers to stdout/stderr (everything else logs through pino). They write to
 * the current command's sinks: the process's streams, or a forwarded request's (see cli-io).
 */
export const out = (text: string): void => {
  cliIo().stdout(text);
};
export const outLine = (line: string): void => out(`${line}\n`);
export const outJson = (value: unknown): void => outLine(JSON.stringify(value));
export const errText = (text: string): void => {
  cliIo().stderr(text);
};
export const errLine = (line: string): void => errText(`${line}\n`);
