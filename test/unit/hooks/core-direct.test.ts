import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { coreRevision } from '../../../src/core-memory/core-block.js';
import { renderCoreDirect } from '../../../src/hooks/core-direct.js';
import { tempDir } from '../../support/cli.js';

const tmp = tempDir('bs-core-direct-');
afterAll(() => tmp.cleanup());

describe('renderCoreDirect: the session start\'s own render', () => {
  it('a home without a database has no core, and none is created', async () => {
    const home = join(tmp.path, 'empty');
    expect(await renderCoreDirect(home, 'default', new Date())).toEqual({ text: '', revision: coreRevision(''), notices: [], via: 'direct' });
    expect(existsSync(join(home, 'db'))).toBe(false);
  });

  it('refuses inside the process that holds the brain, leaving its lock alone', async () => {
    const home = join(tmp.path, 'owned');
    mkdirSync(join(home, 'db'), { recursive: true });
    mkdirSync(join(home, 'run'), { recursive: true });
    writeFileSync(join(home, 'run', 'brain.lock'), String(process.pid));
    await expect(renderCoreDirect(home, 'default', new Date())).rejects.toThrow(/this process owns the brain/);
    expect(readFileSync(join(home, 'run', 'brain.lock'), 'utf8')).toBe(String(process.pid));
  });
});
