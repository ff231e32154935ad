import { describe, expect, it } from 'vitest';
import { isOurCommand, ourCommands, withOurHooks, withoutOurHooks, type Settings } from '../../../src/hooks/hook-settings.js';

const cmd = (event: string): string => `/usr/bin/node /opt/brainstream/dist/src/cli/main.js --home /h hook ${event} --harness claude-code`;

const theirs: Settings = {
  model: 'sonnet',
  hooks: {
    UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo mine' }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'lint.sh' }] }],
  },
};

describe('harness settings edits', () => {
  it('adds the prompt, session-start and post-tool hooks beside other hooks, once, however often it runs', () => {
    const once = withOurHooks(theirs, cmd);
    expect(once).toEqual({
      model: 'sonnet',
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo mine' }] }, { hooks: [{ type: 'command', command: cmd('user-prompt') }] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'lint.sh' }] }],
        SessionStart: [{ hooks: [{ type: 'command', command: cmd('session-start') }] }],
        PostToolUse: [{ hooks: [{ type: 'command', command: cmd('post-tool') }] }],
      },
    });
    expect(withOurHooks(once, cmd)).toEqual(once);
    expect(ourCommands(once)).toEqual({ UserPromptSubmit: [cmd('user-prompt')], SessionStart: [cmd('session-start')], PostToolUse: [cmd('post-tool')] });
  });

  it('uninstall restores the settings exactly', () => {
    expect(withoutOurHooks(withOurHooks(theirs, cmd))).toEqual(theirs);
    expect(withoutOurHooks(withOurHooks({}, cmd))).toEqual({});
  });

  it('keeps a group that mixes our hook with another one', () => {
    const mixed: Settings = { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo a' }, { type: 'command', command: cmd('user-prompt') }] }] } };
    expect(withoutOurHooks(mixed)).toEqual({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo a' }] }] } });
  });

  it('recognises only brainstream hook commands', () => {
    expect(isOurCommand(cmd('session-start'))).toBe(true);
    expect(isOurCommand('brainstream hook user-prompt')).toBe(true);
    expect(isOurCommand('other-tool hook user-prompt')).toBe(false);
    expect(isOurCommand('brainstream doctor')).toBe(false);
  });
});
