/**
 * Splits a byte stream into `\n`-terminated lines without decoding partial UTF-8 sequences.
 * `maxBytes` bounds a pending line so a peer cannot make us buffer without limit.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly maxBytes = Number.POSITIVE_INFINITY) {}

  /** Complete lines in `chunk` (without their `\n`); throws LineTooLongError past `maxBytes`. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(0x0a, start); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
      const part = chunk.subarray(start, nl);
      this.check(this.pendingBytes + part.length);
      lines.push(Buffer.concat([...this.pending, part]).toString('utf8'));
      this.pending = [];
      this.pendingBytes = 0;
      start = nl + 1;
    }
    const rest = chunk.subarray(start);
    if (rest.length > 0) {
      this.check(this.pendingBytes + rest.length);
      this.pending.push(rest);
      this.pendingBytes += rest.length;
    }
    return lines;
  }

  /** Splits off the first line only; everything after it is returned untouched. */
  pushFirst(chunk: Buffer): { line: string; rest: Buffer } | null {
    const nl = chunk.indexOf(0x0a);
    if (nl < 0) {
      this.check(this.pendingBytes + chunk.length);
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      return null;
    }
    const part = chunk.subarray(0, nl);
    this.check(this.pendingBytes + part.length);
    const line = Buffer.concat([...this.pending, part]).toString('utf8');
    this.pending = [];
    this.pendingBytes = 0;
    return { line, rest: chunk.subarray(nl + 1) };
  }

  /** Bytes received after the last `\n` (a last line sent without one), then empties. */
  flush(): string {
    const text = Buffer.concat(this.pending).toString('utf8');
    this.pending = [];
    this.pendingBytes = 0;
    return text;
  }

  private check(bytes: number): void {
    if (bytes > this.maxBytes) throw new LineTooLongError(this.maxBytes);
  }
}

export class LineTooLongError extends Error {
  constructor(readonly maxBytes: number) {
    super(`line longer than ${maxBytes} bytes`);
  }
}
