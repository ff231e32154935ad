/** The CLI's only writers to stdout/stderr (everything else logs through pino). */
export const out = (text: string): void => {
  process.stdout.write(text);
};
export const outLine = (line: string): void => out(`${line}\n`);
export const outJson = (value: unknown): void => outLine(JSON.stringify(value));
export const errLine = (line: string): void => {
  process.stderr.write(`${line}\n`);
};
