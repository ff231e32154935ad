import { describe, expect, it } from 'vitest';
import { codeFenceMask } from '../../../src/pages/code-fences.js';

describe('codeFenceMask', () => {
  it('marks fence lines and their content', () => {
    expect(codeFenceMask(['a', '```ts', 'code', '```', 'b'])).toEqual([false, true, true, true, false]);
  });

  it('closes only on the same character with at least the opening length', () => {
    expect(codeFenceMask(['~~~~', '~~~', '```', '~~~~~', 'x'])).toEqual([true, true, true, true, false]);
  });

  it('runs an unclosed fence to the end', () => {
    expect(codeFenceMask(['```', 'a', 'b'])).toEqual([true, true, true]);
  });

  it('ignores lines indented by 4+ spaces and backtick info strings with backticks', () => {
    expect(codeFenceMask(['    ```', 'x'])).toEqual([false, false]);
    expect(codeFenceMask(['``` a`b', 'x'])).toEqual([false, false]);
    expect(codeFenceMask(['   ```', 'x', '```'])).toEqual([true, true, true]);
  });
});
