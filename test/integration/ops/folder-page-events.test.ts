import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pageFileOutcome, planFolder } from '../../../src/ops/folder-page-events.js';
import { tempDir } from '../../support/cli.js';

const dirs: { cleanup(): void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

function folder(files: Record<string, string>): string {
  const dir = tempDir('bs-folder-events-');
  dirs.push(dir);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(join(dir.path, rel, '..'), { recursive: true });
    writeFileSync(join(dir.path, rel), content);
  }
  return dir.path;
}

describe('pageFileOutcome', () => {
  it('fails a file removed after the folder was scanned, naming why', () => {
    const root = folder({ 'gone.md': '# Gone\n' });
    const plan = planFolder(root);
    rmSync(join(root, 'gone.md'));
    expect(pageFileOutcome(plan.slugs[0]!, 'default')).toEqual({
      kind: 'failed',
      failures: [{ file: 'gone.md', reason: 'the file disappeared before it could be read' }],
    });
  });

  it('fails a file turned into a folder after the scan', () => {
    const root = folder({ 'shape.md': '# Shape\n' });
    const plan = planFolder(root);
    rmSync(join(root, 'shape.md'));
    mkdirSync(join(root, 'shape.md'));
    expect(pageFileOutcome(plan.slugs[0]!, 'default')).toEqual({ kind: 'failed', failures: [{ file: 'shape.md', reason: 'not a regular file' }] });
  });

  it('is unchanged when the bytes hash to the last import, whether the page is live or deleted', () => {
    const root = folder({ 'a.md': '# A\n' });
    const [entry] = planFolder(root).slugs;
    const fresh = pageFileOutcome(entry!, 'default');
    expect(fresh).toMatchObject({ kind: 'page', isNew: true });
    const hash = fresh.kind === 'page' ? fresh.event.data.content_hash : '';
    expect(pageFileOutcome(entry!, 'default', { importedHash: hash, live: true })).toEqual({ kind: 'unchanged' });
    expect(pageFileOutcome(entry!, 'default', { importedHash: hash, live: false })).toEqual({ kind: 'unchanged' });
    expect(pageFileOutcome(entry!, 'default', { importedHash: 'other', live: true })).toMatchObject({ kind: 'page', isNew: false });
    expect(pageFileOutcome(entry!, 'default', { importedHash: 'other', live: false })).toMatchObject({ kind: 'page', isNew: true });
  });

  it('fails a file whose YAML aliases repeat a value past 32 MB, instead of handing the database a huge row', () => {
    const refs = Array.from({ length: 40 }, (_, i) => `k${i}: *big`).join('\n');
    const root = folder({ 'bomb.md': `---\nbase: &big "${'x'.repeat(1024 * 1024)}"\n${refs}\n---\nbody\n` });
    expect(pageFileOutcome(planFolder(root).slugs[0]!, 'default')).toEqual({
      kind: 'failed',
      failures: [{ file: 'bomb.md', reason: 'the parsed page holds more than 33554432 characters of text, over the 32 MB limit (YAML aliases repeat values)' }],
    });
  });
});

describe('planFolder', () => {
  it('fails a path whose slug would be longer than 512 characters', () => {
    // File names are limited to 255 bytes, so the long slug is made of three segments.
    const long = 'b'.repeat(200);
    const root = folder({ [`${long}/${long}/${long}.md`]: 'x', 'ok.md': 'y' });
    const plan = planFolder(root);
    expect(plan.slugs.map((s) => s.slug)).toEqual(['ok']);
    expect(plan.failed).toEqual([{ file: `${long}/${long}/${long}.md`, reason: 'slug is 602 characters, over the 512-character limit' }]);
  });
});
