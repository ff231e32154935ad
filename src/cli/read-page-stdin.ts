import { BrainstreamError } from '../errors.js';
import { checkPageBytes, MAX_PAGE_FILE_BYTES } from '../ops/read-page-file.js';
import { cliIo } from '../command-io.js';

/**
 * The page markdown of `page put` from stdin, held to the rules `import` applies to a file: at
 * most 5 MB, no NUL bytes, valid UTF-8 — anything else is refused (`invalid_input`, exit 1),
 * never stored altered. Reading stops once the limit is passed.
 */
export async function readPageStdin(): Promise<string> {
  const io = cliIo();
  if (io.stdinIsTTY || io.stdin === null) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    chunks.push(bytes);
    size += bytes.length;
    if (size > MAX_PAGE_FILE_BYTES) {
      throw new BrainstreamError('invalid_input', `the markdown on stdin is over the 5 MB limit (more than ${MAX_PAGE_FILE_BYTES} bytes)`);
    }
  }
  const checked = checkPageBytes(Buffer.concat(chunks), 'stdin');
  if (!checked.ok) throw new BrainstreamError('invalid_input', `the markdown on stdin is refused: ${checked.reason}`);
  return checked.text;
}
