import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runWithIo, type CliIo, type ProgressFrame } from '../../../src/command-io.js';
import { progressBar, terminalBar } from '../../../src/cli/progress.js';

const io = (over: Partial<CliIo>): CliIo => ({ stdout: () => {}, stderr: () => {}, stdin: null, stdinIsTTY: false, stderrIsTTY: false, forwarded: false, ...over });

describe('progress of long work', () => {
  it('a forwarded command with a terminal behind it sends its progress, the last state always, then the end', async () => {
    const frames: (ProgressFrame | null)[] = [];
    await runWithIo(io({ forwarded: true, progress: (f) => frames.push(f) }), async () => {
      const bar = progressBar('import');
      for (let done = 0; done <= 5000; done++) bar.update(done, 5000);
      bar.stop();
    });
    expect(frames[0]).toEqual({ label: 'import', done: 0, total: 5000 });
    // Throttled in time: far fewer frames than updates, however fast the machine.
    expect(frames.length).toBeLessThan(5000);
    expect(frames.at(-2)).toEqual({ label: 'import', done: 5000, total: 5000 });
    expect(frames.at(-1)).toBeNull();
  });

  it('shows nothing on a pipe, direct or forwarded', async () => {
    const written: string[] = [];
    for (const over of [{ forwarded: false, stderrIsTTY: false }, { forwarded: true }]) {
      await runWithIo(io({ ...over, stderr: (t) => written.push(t) }), async () => {
        const bar = progressBar('replay');
        bar.update(1, 2);
        bar.update(2, 2);
        bar.stop();
      });
    }
    expect(written).toEqual([]);
  });

  it('draws count, percentage, rate and time left on a terminal', () => {
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 120, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
    let text = '';
    stream.on('data', (c: Buffer) => (text += c.toString()));
    const bar = terminalBar('rebuild pages', stream);
    bar.update(0, 400);
    bar.update(100, 400);
    bar.stop();
    expect(text).toMatch(/rebuild pages \[[^\]]*\] 25% 100\/400 · [\d,–]+\/s · ETA /);
  });
});
