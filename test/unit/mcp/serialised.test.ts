import { describe, expect, it } from 'vitest';
import { serialised } from '../../../src/mcp/serialised.js';

describe('serialised', () => {
  it('runs one function at a time, in order, past failures', async () => {
    const q = serialised();
    const trace: string[] = [];
    let running = 0;
    const step = (name: string, fail = false) => async (): Promise<string> => {
      running++;
      expect(running).toBe(1);
      trace.push(`start ${name}`);
      await new Promise((r) => setImmediate(r));
      trace.push(`end ${name}`);
      running--;
      if (fail) throw new Error(name);
      return name;
    };
    const a = q(step('a'));
    const b = q(step('b', true));
    const c = q(step('c'));
    expect(await a).toBe('a');
    await expect(b).rejects.toThrow('b');
    expect(await c).toBe('c');
    expect(trace).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });
});
