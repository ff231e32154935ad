import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, tempDir } from '../support/cli.js';

const folder = tempDir('bs-import-src-');
const home = tempDir('bs-import-home-');

function write(rel: string, content: string | Buffer): void {
  const full = join(folder.path, rel);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, content);
}

beforeAll(() => {
  write('People/Alice Example.md', '---\ntitle: Alice Example\naliases: [alice]\n---\nAlice Example is an early founder.\n');
  write('companies/acme.md', '# Acme Corp\n\nMakes anvils.\n');
  write('notes/empty-note.md', '');
  write('broken.md', '---\ntitle: [unclosed\n---\nbody\n');
  write('huge.md', Buffer.alloc(5 * 1024 * 1024 + 1, 'a'));
  write('binary.md', Buffer.from([0x61, 0x00, 0x62]));
  write('latin1.md', Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  write('!!!.md', 'no slug here');
  write('Dup Page.md', 'first');
  write('dup-page.md', 'second');
  write('.hidden.md', 'never imported');
  write('readme.txt', 'not markdown');
});

afterAll(() => {
  folder.cleanup();
  home.cleanup();
});

describe('brainstream import', () => {
  it('imports every good file, reports each bad one on stderr, and exits 1', () => {
    const r = runCli(['--home', home.path, 'import', folder.path]);
    expect(r.stdout).toBe('import: 3 added, 0 updated, 0 unchanged, 7 failed (source default)\n');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(7);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^brainstream: import: broken\.md: invalid YAML/),
        'brainstream: import: huge.md: file is 5242881 bytes, over the 5 MB limit',
        'brainstream: import: binary.md: binary file (contains NUL bytes)',
        'brainstream: import: latin1.md: binary file (not valid UTF-8)',
        'brainstream: import: !!!.md: the file name cannot make a valid slug',
        'brainstream: import: Dup Page.md: slug "dup-page" collides with dup-page.md',
        'brainstream: import: dup-page.md: slug "dup-page" collides with Dup Page.md',
      ]),
    );
    expect(r.code).toBe(1);
  });

  it('derives slugs, titles and types per the contract; an empty file is an empty page', () => {
    const r = runCli(['--home', home.path, 'page', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      pages: [
        { source_id: 'default', slug: 'companies/acme', title: 'Acme Corp', type: 'company' },
        { source_id: 'default', slug: 'notes/empty-note', title: 'Empty Note', type: 'note' },
        { source_id: 'default', slug: 'people/alice-example', title: 'Alice Example', type: 'person' },
      ],
      count: 3,
    });
  });

  it('writes nothing when the folder is re-imported unchanged', () => {
    const r = runCli(['--home', home.path, 'import', folder.path]);
    expect(r.stdout).toBe('import: 0 added, 0 updated, 3 unchanged, 7 failed (source default)\n');
  });

  it('counts a changed file as updated and imports into another source', () => {
    write('companies/acme.md', '# Acme Corp\n\nMakes anvils and rockets.\n');
    expect(runCli(['--home', home.path, 'import', folder.path]).stdout).toBe(
      'import: 0 added, 1 updated, 2 unchanged, 7 failed (source default)\n',
    );
    const r = runCli(['--home', home.path, 'import', folder.path, '--source', 'team']);
    expect(r.stdout).toBe('import: 3 added, 0 updated, 0 unchanged, 7 failed (source team)\n');
  });

  it('refuses remote callers and bad sources with the documented exit codes', () => {
    const remote = runCli(['--home', home.path, '--as', 'remote', 'import', folder.path]);
    expect(remote.code).toBe(1);
    expect(remote.stderr).toBe('brainstream: owner_only: import is an owner-only command\n');
    const bad = runCli(['--home', home.path, 'import', folder.path, '--source', 'Bad_Source']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^brainstream: --source expects a source id/);
  });
});

describe('crash during import', () => {
  it('leaves whole pages only: after kill -9, a re-import completes the brain', async () => {
    const big = tempDir('bs-crash-src-');
    const crashHome = tempDir('bs-crash-home-');
    try {
      for (let i = 0; i < 3000; i++) {
        mkdirSync(join(big.path, 'people'), { recursive: true });
        writeFileSync(join(big.path, 'people', `person-${i}.md`), `---\ntitle: Person ${i}\naliases: [p${i}]\n---\nPerson ${i} works at Company ${i % 50}.\n`);
      }
      // Kill the importer right after its first batch committed (its debug log says so).
      await new Promise<void>((done) => {
        const child = spawn(process.execPath, [CLI, '--home', crashHome.path, 'import', big.path], {
          env: { ...process.env, BRAINSTREAM_LOG_LEVEL: 'debug' },
        });
        child.stderr.on('data', (d: Buffer) => {
          if (d.toString().includes('import batch committed')) child.kill('SIGKILL');
        });
        child.on('close', () => done());
      });
      const after = runCli(['--home', crashHome.path, 'import', big.path]);
      expect(after.code).toBe(0);
      const m = /^import: (\d+) added, (\d+) updated, (\d+) unchanged, 0 failed/.exec(after.stdout);
      expect(m).not.toBeNull();
      // The killed run had committed some whole batches and nothing else.
      expect(Number(m![3])).toBeGreaterThan(0);
      expect(Number(m![1])).toBeGreaterThan(0);
      expect(Number(m![1]) + Number(m![3])).toBe(3000);
      expect(Number(m![2])).toBe(0);
      const list = JSON.parse(runCli(['--home', crashHome.path, 'page', 'list', '--json']).stdout) as { count: number };
      expect(list.count).toBe(3000);
    } finally {
      big.cleanup();
      crashHome.cleanup();
    }
  }, 60_000);
});
