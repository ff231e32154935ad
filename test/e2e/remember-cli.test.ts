import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli.js';
import { openCliSession, type CliSession } from '../support/cli-session.js';

const home = tempDir('bs-remember-cli-');
let cli: CliSession;
beforeAll(async () => {
  cli = await openCliSession(home.path);
});
afterAll(async () => {
  await cli.close();
  home.cleanup();
});
const bs = (args: string[], input = '') => cli.run(args, { input });
const items = (list: unknown) => {
  const file = join(home.path, `items-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(list));
  return file;
};

describe('remember / forget / facts list through the CLI', () => {
  it('single form: a fact with provenance, about an entity page or in the fact store', async () => {
    await bs(['page', 'put', 'people/alice'], '---\ntitle: Alice\n---\nAlice.\n');
    expect(await bs(['remember', 'Alice prefers email', '--provenance', 'call 2026-04-07', '--entity', 'people/alice', '--kind', 'preference'])).toEqual({
      code: 0,
      stdout: 'inserted 1 saved on people/alice as row #1\n',
      stderr: '',
    });
    expect((await bs(['remember', 'Standup is at nine', '--provenance', 'chat'])).stdout).toBe('inserted 2 saved in the fact store\n');
    expect((await bs(['remember', 'standup is at NINE', '--provenance', 'chat', '--json'])).stdout).toMatch(/^\{"id":"2","status":"duplicate",/);
    expect(await bs(['remember', 'No provenance'])).toEqual({ code: 1, stdout: '', stderr: 'brainstream: provenance_required: provenance is required\n' });
    expect((await bs(['remember', 'Bad ttl', '--provenance', 'p', '--ttl', 'P30D'])).stderr).toMatch(/^brainstream: invalid_params: ttl "P30D" is an ISO 8601 duration, which is not accepted; use 30d/);
  });

  it('--items-file: one line per item, a summary, exit 1 when partial; --json prints the response', async () => {
    await bs(['config', 'set', 'memory.core.max_chars', '500']);
    await bs(['page', 'put', 'prefs'], '---\ntitle: Prefs\nalways_load: true\n---\nPrefs.\n');
    const file = items({ items: [{ fact: 'Likes tea', provenance: 'p', entity: 'prefs' }, { fact: 'x'.repeat(600), provenance: 'p', entity: 'prefs' }, { fact: 'Uses vim', provenance: 'p' }] });
    const r = await bs(['remember', '--items-file', file]);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('#0 inserted 3 saved on prefs as row #1');
    expect(lines[1]).toMatch(/^#1 error - core would be \d+ chars, \d+ over memory\.core\.max_chars=500; largest core pages you can see: /);
    expect(lines.slice(2)).toEqual(['#2 inserted 4 saved in the fact store', 'remembered 2/3 item(s) (partial)', '']);
    const json = await bs(['remember', '--items-file', '-', '--json', '--request-id', 'req-9'], JSON.stringify([{ fact: 'Drinks oat milk', provenance: 'p' }]));
    expect(json.code).toBe(0);
    const first = JSON.parse(json.stdout);
    expect(first).toEqual({ items: [{ index: 0, id: '5', status: 'inserted', status_text: 'saved in the fact store', valid_until: null }], partial: false, request_id: 'req-9', protocol_version: 1 });
    const replay = await bs(['remember', '--items-file', '-', '--json', '--request-id', 'req-9'], JSON.stringify([{ fact: 'Drinks oat milk', provenance: 'p' }]));
    expect(replay.stdout).toBe(json.stdout);
    expect((await bs(['remember', '--items-file', '-', '--request-id', 'req-9'], JSON.stringify([{ fact: 'Other', provenance: 'p' }]))).stderr).toBe(
      'brainstream: invalid_params: request_id reused with different items\n',
    );
  });

  it('refuses 0 or 21 items and an invalid item among valid ones, naming the index; nothing written', async () => {
    const before = (await bs(['facts', 'list', '--json'])).stdout;
    expect((await bs(['remember', '--items-file', items([])])).stderr).toBe('brainstream: invalid_params: items must hold 1..20 items, got 0\n');
    expect((await bs(['remember', '--items-file', items(Array.from({ length: 21 }, (_, i) => ({ fact: `f${i}`, provenance: 'p' })))])).stderr).toBe(
      'brainstream: invalid_params: items must hold 1..20 items, got 21\n',
    );
    const mixed = await bs(['remember', '--items-file', items([{ fact: 'ok', provenance: 'p' }, { fact: 'no source' }]), '--json']);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toBe('brainstream: provenance_required: items[1].provenance is required\n');
    expect(JSON.parse(mixed.stdout)).toEqual({ error: 'provenance_required', message: 'items[1].provenance is required', index: 1, field: 'provenance' });
    expect((await bs(['remember', '--items-file', '-'], 'not json')).stderr).toMatch(/^brainstream: invalid_params: --items-file - is not JSON/);
    expect((await bs(['facts', 'list', '--json'])).stdout).toBe(before);
  });

  it('forget strikes a fact; facts list shows what the caller may read, newest first', async () => {
    expect((await bs(['forget', '1', '--reason', 'outdated'])).stdout).toBe('forgotten 1 forgotten: outdated (struck on people/alice, row #1)\n');
    expect(await bs(['forget', '42'])).toEqual({ code: 1, stdout: '', stderr: 'brainstream: fact_not_found: no fact "42"; see brainstream facts list\n' });
    await bs(['remember', 'Private note', '--provenance', 'p', '--visibility', 'private']);
    expect((await bs(['facts', 'list'])).stdout).toBe('6  -  fact  Private note\n5  -  fact  Drinks oat milk\n4  -  fact  Uses vim\n3  prefs  fact  Likes tea\n2  -  fact  Standup is at nine\n');
    expect((await bs(['facts', 'list', '--include-forgotten', '--entity', 'people/alice'])).stdout).toBe('1  people/alice  preference  ~~Alice prefers email~~\n');
    const remote = JSON.parse((await bs(['--as', 'remote', 'facts', 'list', '--json'])).stdout);
    expect(remote.facts.map((f: { id: string }) => f.id)).toEqual(['5', '4', '3', '2']);
    expect(remote.count).toBe(4);
  });

  it('call remember runs the same operation as an MCP caller would', async () => {
    const r = await bs(['--as', 'remote', 'call', 'remember', '--params', JSON.stringify({ items: [{ fact: 'Via call', provenance: 'p' }] })]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ items: [{ index: 0, status: 'inserted' }], partial: false, protocol_version: 1 });
  });
});
