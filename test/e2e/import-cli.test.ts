import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync, chownSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, tempDir } from '../support/cli.js';
import { openCliSession, type CliSession } from '../support/cli-session.js';

// Commands run as the binary forwards them to serve, on a brain opened once per home. Runs of
// the binary itself (no serve) remain where the process is the point: the import killed midway,
// the import run as another user, and the progress bar that only a direct run could print.

const eventCount = async (cli: CliSession): Promise<number> =>
  Number((await cli.query<{ n: number }>('SELECT count(*)::int AS n FROM events'))[0]!.n);

/** Opens a session on a fresh home for one test, runs `fn`, then closes it and removes the home. */
async function withFreshHome(prefix: string, fn: (cli: CliSession) => Promise<void>): Promise<void> {
  const home = tempDir(prefix);
  const cli = await openCliSession(home.path);
  try {
    await fn(cli);
  } finally {
    await cli.close();
    home.cleanup();
  }
}

const folder = tempDir('bs-import-src-');
const home = tempDir('bs-import-home-');
let main: CliSession;

function write(rel: string, content: string | Buffer): void {
  const full = join(folder.path, rel);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, content);
}

beforeAll(async () => {
  main = await openCliSession(home.path);
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

afterAll(async () => {
  await main.close();
  folder.cleanup();
  home.cleanup();
});

describe('brainstream import', () => {
  it('imports every good file, reports each bad one on stderr, and exits 1', async () => {
    const r = await main.run(['import', folder.path]);
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

  it('derives slugs, titles and types per the contract; an empty file is an empty page', async () => {
    const r = await main.run(['page', 'list', '--json']);
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

  it('writes nothing when the folder is re-imported unchanged: the log does not grow', async () => {
    const before = await eventCount(main);
    const r = await main.run(['import', folder.path]);
    expect(r.stdout).toBe('import: 0 added, 0 updated, 3 unchanged, 7 failed (source default)\n');
    expect(await eventCount(main)).toBe(before);
  });

  it('counts a changed file as updated and imports into another source', async () => {
    write('companies/acme.md', '# Acme Corp\n\nMakes anvils and rockets.\n');
    expect((await main.run(['import', folder.path])).stdout).toBe(
      'import: 0 added, 1 updated, 2 unchanged, 7 failed (source default)\n',
    );
    const r = await main.run(['import', folder.path, '--source', 'team']);
    expect(r.stdout).toBe('import: 3 added, 0 updated, 0 unchanged, 7 failed (source team)\n');
  });

  it('refuses remote callers and bad sources with the documented exit codes', async () => {
    const remote = await main.run(['--as', 'remote', 'import', folder.path]);
    expect(remote.code).toBe(1);
    expect(remote.stderr).toBe('brainstream: owner_only: import is an owner-only command\n');
    const bad = await main.run(['import', folder.path, '--source', 'Bad_Source']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^brainstream: --source expects a source id/);
  });
});

describe('files that cannot be stored or read', () => {
  it('fails each on its own line while every good file imports and the summary prints', async () => {
    const src = tempDir('bs-import-bad-');
    try {
      const put = (rel: string, content: string): void => {
        mkdirSync(join(src.path, rel, '..'), { recursive: true });
        writeFileSync(join(src.path, rel), content);
      };
      const long = 'a'.repeat(200);
      put('ok.md', '# OK\n');
      put(`${long}/${long}/${long}.md`, 'deep\n');
      put('nul-escape.md', '---\ntitle: "x\\0y"\n---\nbody\n');
      put('surrogate.md', '---\ntitle: ok\nnote: "\\ud800"\n---\nbody\n');
      put('nul-key.md', '---\n"k\\0": 1\n---\nbody\n');
      put('zz-last.md', '# Last\n');
      await withFreshHome('bs-import-bad-home-', async (cli) => {
        const r = await cli.run(['import', src.path]);
        expect(r.stdout).toBe('import: 2 added, 0 updated, 0 unchanged, 4 failed (source default)\n');
        expect(r.stderr.split('\n').filter((l) => l !== '')).toEqual([
          `brainstream: import: ${long}/${long}/${long}.md: slug is 602 characters, over the 512-character limit`,
          'brainstream: import: nul-escape.md: title contains a NUL character (\\0), which cannot be stored',
          'brainstream: import: nul-key.md: a key of frontmatter contains a NUL character (\\0), which cannot be stored',
          'brainstream: import: surrogate.md: frontmatter.note contains an unpaired UTF-16 surrogate (e.g. "\\ud800"), which cannot be stored',
        ]);
        expect(r.code).toBe(1);
        const list = await cli.run(['page', 'list']);
        expect(list.stdout).toBe('default:ok\tOK\ndefault:zz-last\tLast\n');
      });
    } finally {
      src.cleanup();
    }
  });

  it('reports an unreadable file and an unreadable sub-folder, and imports the rest', () => {
    const src = tempDir('bs-import-perm-');
    const permHome = tempDir('bs-import-perm-home-');
    try {
      mkdirSync(join(src.path, 'locked'));
      mkdirSync(join(src.path, 'open'));
      writeFileSync(join(src.path, 'locked', 'inside.md'), '# Inside\n');
      writeFileSync(join(src.path, 'open', 'fine.md'), '# Fine\n');
      writeFileSync(join(src.path, 'secret.md'), '# Secret\n');
      writeFileSync(join(src.path, 'ok.md'), '# OK\n');
      chmodSync(join(src.path, 'locked'), 0o000);
      chmodSync(join(src.path, 'secret.md'), 0o000);
      // Permissions do not stop root: run the CLI as nobody then (both folders made reachable for it).
      const asRoot = process.getuid?.() === 0;
      // The home must belong to the user running the command (a home others own is refused).
      if (asRoot) {
        for (const dir of [src.path, join(src.path, 'open')]) chmodSync(dir, 0o777);
        chownSync(permHome.path, 65534, 65534);
      }
      const r = spawnSync(process.execPath, [CLI, '--home', permHome.path, 'import', src.path], {
        encoding: 'utf8',
        env: { ...process.env, BRAINSTREAM_SOURCE: '' },
        ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
      });
      expect(r.stdout).toBe('import: 2 added, 0 updated, 0 unchanged, 2 failed (source default)\n');
      expect(r.stderr).toBe(
        'brainstream: import: locked/: cannot read the folder: permission denied\n' +
          'brainstream: import: secret.md: cannot read the file: permission denied\n',
      );
      expect(r.status).toBe(1);
    } finally {
      chmodSync(join(src.path, 'locked'), 0o755);
      src.cleanup();
      permHome.cleanup();
    }
  });

  it('does not follow symlinks, to files or to folders', async () => {
    const src = tempDir('bs-import-links-');
    const outside = tempDir('bs-import-outside-');
    try {
      writeFileSync(join(outside.path, 'elsewhere.md'), '# Elsewhere\n');
      mkdirSync(join(outside.path, 'folder'));
      writeFileSync(join(outside.path, 'folder', 'deep.md'), '# Deep\n');
      writeFileSync(join(src.path, 'real.md'), '# Real\n');
      symlinkSync(join(outside.path, 'elsewhere.md'), join(src.path, 'linked.md'));
      symlinkSync(join(outside.path, 'folder'), join(src.path, 'linked-folder'));
      symlinkSync(join(src.path, 'real.md'), join(src.path, 'alias-of-real.md'));
      await withFreshHome('bs-import-links-home-', async (cli) => {
        const r = await cli.run(['import', src.path]);
        expect(r.stdout).toBe('import: 1 added, 0 updated, 0 unchanged, 0 failed (source default)\n');
        expect(r.code).toBe(0);
        expect((await cli.run(['page', 'list'])).stdout).toBe('default:real\tReal\n');
      });
    } finally {
      src.cleanup();
      outside.cleanup();
    }
  });

  // Run directly: commands forwarded to serve never draw a progress bar, a direct run checks its stderr.
  it('prints no progress when stderr is not a terminal', () => {
    const src = tempDir('bs-import-quiet-');
    const quietHome = tempDir('bs-import-quiet-home-');
    try {
      for (let i = 0; i < 1200; i++) writeFileSync(join(src.path, `page-${i}.md`), `# Page ${i}\n`);
      const r = runCli(['--home', quietHome.path, 'import', src.path]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('import: 1200 added, 0 updated, 0 unchanged, 0 failed (source default)\n');
      expect(r.stderr).toBe('');
    } finally {
      src.cleanup();
      quietHome.cleanup();
    }
  });
});

describe('unchanged since the last import', () => {
  const src = tempDir('bs-import-last-');
  const lastHome = tempDir('bs-import-last-home-');
  let cli: CliSession;
  const importIt = async (): Promise<string> => (await cli.run(['import', src.path])).stdout;

  beforeAll(async () => {
    cli = await openCliSession(lastHome.path);
    writeFileSync(join(src.path, 'alice.md'), '# Alice\n\nFrom the file.\n');
    writeFileSync(join(src.path, 'bob.md'), '# Bob\n\nFrom the file.\n');
    writeFileSync(join(src.path, 'carol.md'), '# Carol\n\nFrom the file.\n');
    expect(await importIt()).toBe('import: 3 added, 0 updated, 0 unchanged, 0 failed (source default)\n');
  });

  afterAll(async () => {
    await cli.close();
    src.cleanup();
    lastHome.cleanup();
  });

  it('keeps a page put edit: the unchanged file writes nothing', async () => {
    const edit = await cli.run(['page', 'put', 'alice'], { input: '# Alice\n\nEdited by the owner.\n' });
    expect(edit.stdout).toBe('put default:alice (updated)\n');
    const before = await eventCount(cli);
    expect(await importIt()).toBe('import: 0 added, 0 updated, 3 unchanged, 0 failed (source default)\n');
    expect(await eventCount(cli)).toBe(before);
    expect((await cli.run(['page', 'get', 'alice'])).stdout).toContain('Edited by the owner.');
  });

  it('keeps a deleted page deleted: the unchanged file writes nothing', async () => {
    expect((await cli.run(['page', 'delete', 'bob'])).stdout).toBe('deleted default:bob\n');
    const before = await eventCount(cli);
    expect(await importIt()).toBe('import: 0 added, 0 updated, 3 unchanged, 0 failed (source default)\n');
    expect(await eventCount(cli)).toBe(before);
    expect((await cli.run(['page', 'list'])).stdout).toBe('default:alice\tAlice\ndefault:carol\tCarol\n');
  });

  it('imports a file changed since: over the edit (updated) and back from deletion (added)', async () => {
    writeFileSync(join(src.path, 'alice.md'), '# Alice\n\nThe file changed.\n');
    writeFileSync(join(src.path, 'bob.md'), '# Bob\n\nThe file changed.\n');
    expect(await importIt()).toBe('import: 1 added, 1 updated, 1 unchanged, 0 failed (source default)\n');
    expect((await cli.run(['page', 'get', 'alice'])).stdout).toContain('The file changed.');
    expect((await cli.run(['page', 'get', 'bob'])).stdout).toContain('The file changed.');
    expect(await importIt()).toBe('import: 0 added, 0 updated, 3 unchanged, 0 failed (source default)\n');
  });
});

describe('crash during import', () => {
  // Two import batches (1,000 pages each at most): enough for a kill inside the second one.
  const PAGES = 1500;
  const big = tempDir('bs-crash-src-');

  beforeAll(() => {
    mkdirSync(join(big.path, 'people'), { recursive: true });
    for (let i = 0; i < PAGES; i++) {
      writeFileSync(join(big.path, 'people', `person-${i}.md`), `---\ntitle: Person ${i}\naliases: [p${i}]\n---\nPerson ${i} works at Company ${i % 50}.\n`);
    }
  });

  afterAll(() => big.cleanup());

  /**
   * Starts an import and kills it (SIGKILL) `delayMs` after the `nth` occurrence of `marker` in
   * its debug log, or `delayMs` after it started when `marker` is null. Resolves once it is gone.
   */
  function importKilled(home: string, marker: string | null, nth: number, delayMs: number): Promise<void> {
    return new Promise<void>((done) => {
      const child = spawn(process.execPath, [CLI, '--home', home, 'import', big.path], {
        env: { ...process.env, BRAINSTREAM_LOG_LEVEL: 'debug', BRAINSTREAM_SOURCE: '' },
      });
      let seen = 0;
      const kill = (): void => void setTimeout(() => child.kill('SIGKILL'), delayMs);
      if (marker === null) kill();
      child.stderr.on('data', (d: Buffer) => {
        if (marker === null) return;
        const hits = d.toString().split(marker).length - 1;
        if (seen < nth && seen + hits >= nth) kill();
        seen += hits;
      });
      child.on('close', () => done());
    });
  }

  /** The log and the pages projection agree, and every file is in both exactly once. */
  async function expectConsistent(cli: CliSession): Promise<void> {
    const one = async (sql: string): Promise<number> => Number((await cli.query<{ n: number }>(sql))[0]!.n);
    expect(await one(`SELECT count(*)::int AS n FROM events WHERE type = 'page.upserted'`)).toBe(PAGES);
    expect(await one(`SELECT count(DISTINCT data->>'slug')::int AS n FROM events WHERE type = 'page.upserted'`)).toBe(PAGES);
    expect(await one(`SELECT count(*)::int AS n FROM pages`)).toBe(PAGES);
    expect(await one(`SELECT count(*)::int AS n FROM pages WHERE NOT deleted`)).toBe(PAGES);
    // Each row is exactly the last event of its page.
    expect(
      await one(`WITH last AS (
          SELECT DISTINCT ON (data->>'source_id', data->>'slug') data->>'source_id' AS s, data->>'slug' AS g,
                 data->>'title' AS t, data->>'content_hash' AS h, data->'frontmatter' AS f
          FROM events WHERE type = 'page.upserted' ORDER BY data->>'source_id', data->>'slug', seq DESC)
        SELECT count(*)::int AS n FROM last JOIN pages p
          ON p.source_id = last.s AND p.slug = last.g AND p.title = last.t AND p.content_hash = last.h AND p.frontmatter = last.f`),
    ).toBe(PAGES);
    // The projection has read everything the log holds.
    const checkpoint = await one(`SELECT position::int AS n FROM checkpoints WHERE consumer = 'projection.pages'`);
    expect(checkpoint).toBeGreaterThan(await one(`SELECT max(seq)::int AS n FROM events WHERE topic = 'pages'`));
    expect(await one(`SELECT count(*)::int AS n FROM dead_letters`)).toBe(0);
  }

  // Killed while opening the brain, while a batch is being appended or projected, and between batches.
  const moments: { name: string; marker: string | null; nth: number; delayMs: number }[] = [
    { name: 'early, while the brain opens or files are read', marker: null, nth: 0, delayMs: 300 },
    { name: 'as the first batch starts writing', marker: 'import batch writing', nth: 1, delayMs: 0 },
    { name: 'shortly into the first batch write', marker: 'import batch writing', nth: 1, delayMs: 25 },
    { name: 'well into the second batch write', marker: 'import batch writing', nth: 2, delayMs: 80 },
    { name: 'right after a batch committed', marker: 'import batch committed', nth: 1, delayMs: 0 },
  ];

  it.each(moments)('leaves whole pages only when killed $name: a re-import completes the brain', async ({ marker, nth, delayMs }) => {
    const crashHome = tempDir('bs-crash-home-');
    try {
      await importKilled(crashHome.path, marker, nth, delayMs);
      // The brain is opened again, and the folder re-imported, by serve.
      const cli = await openCliSession(crashHome.path);
      try {
        const after = await cli.run(['import', big.path]);
        expect(after.stderr).toBe('');
        expect(after.code).toBe(0);
        const m = /^import: (\d+) added, (\d+) updated, (\d+) unchanged, 0 failed \(source default\)\n$/.exec(after.stdout);
        expect(m).not.toBeNull();
        expect(Number(m![1]) + Number(m![3])).toBe(PAGES);
        expect(Number(m![2])).toBe(0);
        await expectConsistent(cli);
      } finally {
        await cli.close();
      }
    } finally {
      crashHome.cleanup();
    }
  });
});
