import { cliIo } from '../command-io.js';

/** Reads all of the command's stdin as UTF-8 (replacement characters for invalid bytes). */
export async function readStdin(): Promise<string> {
  const io = cliIo();
  if (io.stdinIsTTY || io.stdin === null) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
