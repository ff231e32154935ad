import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { coreRevision } from '../../../src/core-memory/core-block.js';
import { givenUpRun } from '../../../src/hooks/hook-main.js';
import { EMPTY_CORE_REVISION, sessionStartCoreFields } from '../../../src/hooks/session-start-beat.js';

describe('session-start heartbeat core fields', () => {
  it('the empty revision is the core revision hash of ""', () => {
    expect(EMPTY_CORE_REVISION).toBe(coreRevision(''));
    expect(EMPTY_CORE_REVISION).toBe(createHash('sha256').update('').digest('hex').slice(0, 16));
  });

  it('carries the printed size and the revision it came with', () => {
    expect(sessionStartCoreFields({ text: '# Core memory\n\n## A (a)\n\nx', revision: '0123456789abcdef' })).toEqual({ core_chars: 26, core_revision: '0123456789abcdef' });
    // Core delivered but this session has no page: nothing printed, the brain-wide revision kept.
    expect(sessionStartCoreFields({ text: '', revision: 'fedcba9876543210' })).toEqual({ core_chars: 0, core_revision: 'fedcba9876543210' });
  });

  it('no core fetched, or a revision that is not one: the empty block', () => {
    expect(sessionStartCoreFields(null)).toEqual({ core_chars: 0, core_revision: EMPTY_CORE_REVISION });
    expect(sessionStartCoreFields({ text: 'abc', revision: '' })).toEqual({ core_chars: 3, core_revision: EMPTY_CORE_REVISION });
  });

  it('a session start that gave up still records its core fields; other events do not get them', () => {
    for (const reason of ['deadline', 'internal'] as const) {
      const run = givenUpRun('session-start', reason, { notice: null });
      expect(run.stdout).toBeNull();
      expect(run.heartbeat).toEqual({ outcome: reason === 'deadline' ? 'degraded' : 'error', reason, core_chars: 0, core_revision: EMPTY_CORE_REVISION });
    }
    const prompt = givenUpRun('user-prompt', 'deadline', { notice: 'NOTICE', turns: 3 });
    expect(prompt.heartbeat).toEqual({ outcome: 'degraded', reason: 'deadline', turns: 3 });
    expect(JSON.parse(prompt.stdout!)).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'NOTICE' } });
  });
});
