import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { parseThresholdRange } from '../../../src/replay/threshold-range.js';

describe('parseThresholdRange', () => {
  it('expands START:END:STEP inclusively, exact at the live gate', () => {
    expect(parseThresholdRange('--min-confidence', '0.6:0.9:0.05')).toEqual([0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9]);
    expect(parseThresholdRange('--min-confidence', '0.6:0.9:0.05')).toContain(0.7);
    expect(parseThresholdRange('--min-confidence', '0.7')).toEqual([0.7]);
    expect(parseThresholdRange('--min-confidence', '0.5:0.5:0.1')).toEqual([0.5]);
    expect(parseThresholdRange('--min-confidence', '0:1:0.25')).toEqual([0, 0.25, 0.5, 0.75, 1]);
  });

  it.each([
    ['0.9:0.6:0.05', 'is reversed (start 0.9 > end 0.6)'],
    ['0.6:0.9:0', 'is empty (the step must be > 0)'],
    ['0.6:0.9:-0.05', 'is empty (the step must be > 0)'],
    ['0.6:1.5:0.1', 'thresholds lie in [0, 1], got 1.5'],
    ['-0.1', 'thresholds lie in [0, 1], got -0.1'],
    ['abc', 'expects numbers, got "abc"'],
    ['0.6:0.9', 'expects START:END:STEP or one number'],
    ['', 'expects numbers'],
    ['0:1:0.0001', 'has 10001 thresholds'],
  ])('%s is a usage error: %s', (text, message) => {
    expect(() => parseThresholdRange('--min-confidence', text)).toThrow(UsageError);
    expect(() => parseThresholdRange('--min-confidence', text)).toThrow(message);
  });
});
