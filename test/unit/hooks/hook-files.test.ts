import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkTranscriptPath } from '../../../src/hooks/transcript-path.js';
import { parseLine, readTranscriptTail } from '../../../src/hooks/transcript-tail.js';

const base = mkdtempSync(join(tmpdir(), 'bs-hook-path-'));
const root = join(base, '.claude', 'projects');
const project = join(root, '-home-user-acme');
mkdirSync(project, { recursive: true });
const good = join(project, 'session.jsonl');
writeFileSync(good, '{"type":"user","message":{"content":"hi"}}\n');
writeFileSync(join(base, 'secret.jsonl'), '{"type":"user","message":{"content":"secret"}}\n');
symlinkSync(join(base, 'secret.jsonl'), join(project, 'link.jsonl'));
mkdirSync(join(base, 'elsewhere'));
writeFileSync(join(base, 'elsewhere', 'x.jsonl'), '{}\n');
symlinkSync(join(base, 'elsewhere'), join(project, 'linked-dir'));
writeFileSync(join(project, 'notes.txt'), 'x');
mkdirSync(join(project, 'dir.jsonl'));

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('transcript path checks', () => {
  it('accepts a regular .jsonl file inside the root', () => {
    expect(checkTranscriptPath(good, root)).toEqual({ ok: true, path: good });
  });

  it.each([
    ['path traversal out of the root', join(root, '..', '..', 'secret.jsonl'), 'transcript_outside_root'],
    ['a file outside the root', join(base, 'secret.jsonl'), 'transcript_outside_root'],
    ['a symlinked file', join(project, 'link.jsonl'), 'transcript_symlink'],
    ['a file below a symlinked folder', join(project, 'linked-dir', 'x.jsonl'), 'transcript_outside_root'],
    ['another extension', join(project, 'notes.txt'), 'transcript_not_jsonl'],
    ['a folder', join(project, 'dir.jsonl'), 'transcript_not_file'],
    ['a missing file', join(project, 'gone.jsonl'), 'transcript_missing'],
  ])('refuses %s', (_what, path, reason) => {
    expect(checkTranscriptPath(path, root)).toEqual({ ok: false, reason });
  });

  it('names a transcript below a root that does not exist yet missing, not outside the root', () => {
    const absentRoot = join(base, 'no-harness-yet', 'projects');
    expect(checkTranscriptPath(join(absentRoot, '-p', 'first.jsonl'), absentRoot)).toEqual({ ok: false, reason: 'transcript_missing' });
    expect(checkTranscriptPath(join(absentRoot, '..', 'elsewhere.jsonl'), absentRoot)).toEqual({ ok: false, reason: 'transcript_outside_root' });
  });
});

describe('transcript tail', () => {
  it('reads only the newest bytes, dropping the line cut by the window start', () => {
    const path = join(project, 'long.jsonl');
    const lines = Array.from({ length: 50 }, (_, i) => JSON.stringify({ type: 'user', n: i }));
    writeFileSync(path, `${lines.join('\n')}\nnot json\n`);
    const tail = readTranscriptTail(path, 200).toString('utf8').split('\n').map(parseLine).filter((e) => e !== null);
    expect(tail.length).toBeGreaterThan(0);
    expect(tail.length).toBeLessThan(50);
    expect(tail[tail.length - 1]).toEqual({ type: 'user', n: 49 });
    expect(parseLine('not json')).toBeNull();
    const numbers = tail.map((e) => e!.n as number);
    expect(numbers).toEqual(numbers.map((_, i) => 50 - numbers.length + i));
  });
});

describe('hook transcript scan', () => {
  it('takes the last 4 turns (the recorded prompt once), our blocks and the last two usage readings', async () => {
    const { readHookTranscript } = await import('../../../src/hooks/hook-transcript.js');
    const { usageFromTranscript } = await import('../../../src/core-memory/transcript-usage.js');
    const path = join(project, 'scan.jsonl');
    const turn = (type: string, text: string, usage?: number): string =>
      JSON.stringify({ type, isSidechain: false, message: { role: type, content: text, ...(usage ? { usage: { input_tokens: usage } } : {}) } });
    writeFileSync(
      path,
      [
        turn('user', 'one'),
        JSON.stringify({ type: 'attachment', attachment: { type: 'hook_additional_context', content: ['## Brain pages mentioned this turn\n- `people/a`'] } }),
        turn('assistant', 'two', 100),
        turn('user', 'three'),
        turn('assistant', 'four', 150),
        turn('user', 'five'),
        turn('assistant', 'six', 190),
        turn('user', 'the prompt'),
      ].join('\n'),
    );
    const saved = process.env.HOME;
    process.env.HOME = base;
    try {
      const r = readHookTranscript(path, 'claude-code', 'the prompt');
      if (!r.ok) throw new Error(r.reason);
      expect(r.turns.map((t) => t.text)).toEqual(['three', 'four', 'five', 'six']);
      expect(r.priorContext).toBe('## Brain pages mentioned this turn\n- `people/a`');
      expect(usageFromTranscript(r.usageEntries)).toEqual({ used_tokens: 190, last_turn_tokens: 40 });
      expect(readHookTranscript(join(base, 'secret.jsonl'), 'claude-code', 'x')).toEqual({ ok: false, reason: 'transcript_outside_root' });
    } finally {
      process.env.HOME = saved;
    }
  });
});
