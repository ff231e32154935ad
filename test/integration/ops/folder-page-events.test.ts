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

describe('hostile file names and frontmatter', () => {
  const bytes = (...parts: (string | number[])[]): Buffer => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

  it('a name that is not UTF-8 is named as such (not as a file that disappeared); the rest still imports', () => {
    const root = folder({ 'ok.md': '# Ok\n' });
    writeFileSync(bytes(root, '/caf', [0xe9], '.md'), 'x');
    mkdirSync(bytes(root, '/dir', [0xff]));
    writeFileSync(bytes(root, '/dir', [0xff], '/inner.md'), 'x');
    const plan = planFolder(root);
    expect(plan.slugs.map((s) => s.slug)).toEqual(['ok']);
    expect(plan.failed).toEqual([
      { file: 'caf\uFFFD.md', reason: 'the file name is not valid UTF-8: rename the file' },
      { file: 'dir\uFFFD/', reason: 'the folder name is not valid UTF-8: rename the folder' },
    ]);
  });

  it('a backslash is part of a name, not a folder: back\\slash.md and back/slash.md are two pages', () => {
    const root = folder({ 'back\\slash.md': 'one\n', 'back/slash.md': 'two\n' });
    const plan = planFolder(root);
    expect(plan.failed).toEqual([]);
    expect(plan.slugs.map((s) => [s.slug, s.files.map((f) => f.relative)])).toEqual([
      ['back/slash', ['back/slash.md']],
      ['backslash', ['back\\slash.md']],
    ]);
  });

  it('control characters in a name reach neither the title nor the failure line', () => {
    const root = folder({ 'bell\u0007\u001b[31mred.md': 'body\n', '\u001b!!.md': 'x' });
    const plan = planFolder(root);
    expect(plan.failed).toEqual([{ file: '\\x1b!!.md', reason: 'the file name cannot make a valid slug' }]);
    const outcome = pageFileOutcome(plan.slugs[0]!, 'default');
    expect(outcome).toMatchObject({ kind: 'page', event: { data: { slug: 'bell31mred', title: 'Bell [31mred' } } });
  });

  it('frontmatter: a self-containing alias and __proto__ fail by name; title: 123 is kept', () => {
    const root = folder({
      'alias.md': '---\nx: &a [*a]\n---\nbody\n',
      'proto.md': '---\n__proto__:\n  always_load: true\n---\nbody\n',
      'num.md': '---\ntitle: 123\n---\nbody\n',
    });
    const outcomes = Object.fromEntries(planFolder(root).slugs.map((s) => [s.slug, pageFileOutcome(s, 'default')]));
    expect(outcomes.alias).toEqual({ kind: 'failed', failures: [{ file: 'alias.md', reason: 'invalid YAML in frontmatter: an alias refers to a value that contains it' }] });
    expect(outcomes.proto).toEqual({ kind: 'failed', failures: [{ file: 'proto.md', reason: 'invalid YAML in frontmatter: the key "__proto__" is not allowed' }] });
    expect(outcomes.num).toMatchObject({ kind: 'page', event: { data: { title: '123' } } });
  });
});
