// The prebuilt home database: used only when made from exactly the shipped migrations and the
// installed engine, extracted completely or not at all, and never outside its folder.
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { engineVersion, expectedManifest, seedFromTemplate, TEMPLATE_ARCHIVE, TEMPLATE_MANIFEST, templateMismatch } from '../../../src/db/home-template.js';
import type { Migration } from '../../../src/db/migrate.js';
import { extractTar, UnsupportedArchiveError } from '../../../src/db/untar.js';

const scratch = (): string => mkdtempSync(join(tmpdir(), 'bs-template-'));

/** One ustar member header (plus its padded data) — enough to build test archives. */
function member(name: string, type: '0' | '5' | '2', data = Buffer.alloc(0)): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, 'utf8');
  h.write('0000644\0', 100);
  h.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124);
  h.write(type, 156);
  h.write('ustar\0', 257);
  h.write('00', 263);
  const padded = Buffer.alloc(Math.ceil(data.length / 512) * 512);
  data.copy(padded);
  return Buffer.concat([h, padded]);
}

const archive = (...members: Buffer[]): Buffer => Buffer.concat([...members, Buffer.alloc(1024)]);

async function* chunked(buf: Buffer, size: number): AsyncIterable<Buffer> {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

const migrations: Migration[] = [
  { version: 1, name: 'one', sql: 'CREATE TABLE a (x int);' },
  { version: 2, name: 'two', sql: 'CREATE TABLE b (y int);' },
];

describe('extractTar', () => {
  it('writes folders and files, whatever the chunk boundaries', async () => {
    const big = Buffer.alloc(1300, 7);
    const tar = archive(member('/pgdata', '5'), member('/pgdata/PG_VERSION', '0', Buffer.from('17\n')), member('/base/5/1259', '0', big), member('/empty', '0'));
    for (const size of [1, 511, 512, 4096]) {
      const root = scratch();
      await extractTar(chunked(tar, size), root);
      expect(readFileSync(join(root, 'pgdata', 'PG_VERSION'), 'utf8')).toBe('17\n');
      expect(readFileSync(join(root, 'base', '5', '1259')).equals(big)).toBe(true);
      expect(readFileSync(join(root, 'empty')).length).toBe(0);
    }
  });

  it('refuses members that leave the folder, links, and truncated archives', async () => {
    await expect(extractTar(chunked(archive(member('../evil', '0', Buffer.from('x'))), 512), scratch())).rejects.toBeInstanceOf(UnsupportedArchiveError);
    await expect(extractTar(chunked(archive(member('/link', '2')), 512), scratch())).rejects.toBeInstanceOf(UnsupportedArchiveError);
    const cut = member('/file', '0', Buffer.alloc(2000, 1)).subarray(0, 1024);
    await expect(extractTar(chunked(cut, 512), scratch())).rejects.toBeInstanceOf(UnsupportedArchiveError);
  });
});

describe('templateMismatch', () => {
  const expected = expectedManifest(migrations, '1.2.3');

  it('accepts a template made from the same migrations and engine', () => {
    expect(templateMismatch(JSON.parse(JSON.stringify(expected)), expected)).toBeNull();
  });

  it('names why a template is stale', () => {
    const changedSql = expectedManifest([migrations[0]!, { ...migrations[1]!, sql: 'CREATE TABLE b (y bigint);' }], '1.2.3');
    expect(templateMismatch(changedSql, expected)).toBe('template made from other migrations');
    expect(templateMismatch(expectedManifest(migrations.slice(0, 1), '1.2.3'), expected)).toBe('template made from other migrations');
    expect(templateMismatch(expectedManifest(migrations, '1.2.4'), expected)).toMatch(/engine 1\.2\.4, installed 1\.2\.3/);
    expect(templateMismatch(null, expected)).toBe('no template manifest');
  });
});

describe('seedFromTemplate', () => {
  function templateFolder(manifestFor: readonly Migration[]): string {
    const dir = scratch();
    writeFileSync(join(dir, TEMPLATE_MANIFEST), JSON.stringify(expectedManifest(manifestFor, engineVersion())));
    writeFileSync(join(dir, TEMPLATE_ARCHIVE), gzipSync(archive(member('/PG_VERSION', '0', Buffer.from('17\n')), member('/postmaster.pid', '0', Buffer.from('1')))));
    return dir;
  }

  it('creates the database folder from a matching template, without the dump-time pid file', async () => {
    const home = scratch();
    const db = join(home, 'db');
    expect(await seedFromTemplate(db, templateFolder(migrations), migrations)).toBe(true);
    expect(readdirSync(db)).toEqual(['PG_VERSION']);
    expect(existsSync(`${db}.seeding`)).toBe(false);
  });

  it('leaves the folder alone when the template is stale or the database exists', async () => {
    const home = scratch();
    const db = join(home, 'db');
    expect(await seedFromTemplate(db, templateFolder(migrations.slice(0, 1)), migrations)).toBe(false);
    expect(existsSync(db)).toBe(false);
    writeFileSync(db, 'already here');
    expect(await seedFromTemplate(db, templateFolder(migrations), migrations)).toBe(false);
    expect(readFileSync(db, 'utf8')).toBe('already here');
  });

  it('leaves no half-written database when the archive is broken', async () => {
    const dir = templateFolder(migrations);
    writeFileSync(join(dir, TEMPLATE_ARCHIVE), gzipSync(archive(member('/link', '2'))));
    const db = join(scratch(), 'db');
    expect(await seedFromTemplate(db, dir, migrations)).toBe(false);
    expect(existsSync(db)).toBe(false);
    expect(existsSync(`${db}.seeding`)).toBe(false);
  });
});
