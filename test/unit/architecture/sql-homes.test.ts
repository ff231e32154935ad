// SQL lives in three kinds of place: the projections (each owns its tables and the queries others
// need of them), the storage adapters (src/db) and the event log's adapters (src/event-log,
// which also keep consumer positions and session state). Everything else asks them, so a table
// can change in one place. This test names any other file that talks SQL.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const HOMES = ['projections/', 'src/db/', 'src/event-log/'];
/** A statement in a string: a keyword at the start of a quoted or template literal, or after a newline in one. */
const STATEMENT = /['"`]\s*(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM|TRUNCATE|SET TRANSACTION|CREATE TABLE|ALTER TABLE)\b/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

describe('where SQL lives', () => {
  it('only projections, storage adapters and the event log run statements', () => {
    const strays = ['src', 'streams', 'projections']
      .flatMap((tree) => sourceFiles(join(ROOT, tree)))
      .map((file) => relative(ROOT, file))
      .filter((file) => !HOMES.some((home) => file.startsWith(home)))
      .filter((file) => STATEMENT.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(strays).toEqual([]);
  });

  it('recognises a statement wherever it is written', () => {
    for (const text of ["db.query('SELECT 1')", 'tx.query(`\n  INSERT INTO pages (slug) VALUES ($1)`', 'q("UPDATE pages SET deleted = true")']) {
      expect(STATEMENT.test(text), text).toBe(true);
    }
    expect(STATEMENT.test("logger.info('select a page')")).toBe(false);
  });
});
