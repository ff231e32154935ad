import { BrainstreamError } from '../errors.js';

/** A page's frontmatter cannot be parsed: the write fails (`invalid_frontmatter`, exit 1). */
export class InvalidFrontmatterError extends BrainstreamError {
  declare readonly code: 'invalid_frontmatter';
  /** 1-based line of the markdown document where the problem was found, when known. */
  readonly line: number | null;

  constructor(message: string, line: number | null = null) {
    super('invalid_frontmatter', message, line === null ? {} : { line });
    this.name = 'InvalidFrontmatterError';
    this.line = line;
  }

  /** The JSON error envelope printed with `--json`. */
  toEnvelope(): { error: 'invalid_frontmatter'; message: string; line?: number } {
    return this.line === null
      ? { error: this.code, message: this.message }
      : { error: this.code, message: this.message, line: this.line };
  }
}
