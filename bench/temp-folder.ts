import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const tempFolder = (prefix: string): string => mkdtempSync(join(tmpdir(), prefix));
