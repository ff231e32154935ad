import { describe, expect, it } from 'vitest';
import { AsyncMutex } from '../../../src/ops/core-write-lock.js';

describe('AsyncMutex', () => {
  it('runs holders one at a time, in arrival order, and releases after a failure', async () => {
    const mutex = new AsyncMutex();
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = mutex.run(async () => {
      log.push('1 start');
      await gate;
      log.push('1 end');
      throw new Error('boom');
    });
    const second = mutex.run(async () => {
      log.push('2');
      return 2;
    });
    const third = mutex.run(async () => {
      log.push('3');
      return 3;
    });
    await Promise.resolve();
    expect(log).toEqual(['1 start']);
    release();
    await expect(first).rejects.toThrow('boom');
    expect(await second).toBe(2);
    expect(await third).toBe(3);
    expect(log).toEqual(['1 start', '1 end', '2', '3']);
  });
});
