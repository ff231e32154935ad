import { describe, expect, it } from 'vitest';
import { deadlineFromEnv } from '../../../src/hooks/hook-deadline.js';

describe('BRAINSTREAM_HOOK_DEADLINE_MS', () => {
  it('takes a whole number of milliseconds from 100 to 600000', () => {
    expect(deadlineFromEnv('100')).toBe(100);
    expect(deadlineFromEnv(' 5000 ')).toBe(5000);
    expect(deadlineFromEnv('600000')).toBe(600_000);
  });

  it('ignores anything else, so the harness deadline applies', () => {
    for (const raw of [undefined, '', '99', '600001', '1.5', '-200', '2e3', 'soon', '0x100']) expect(deadlineFromEnv(raw), String(raw)).toBeNull();
  });
});
