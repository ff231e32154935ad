import { describe, expect, it } from 'vitest';
import { debugging, loggableError } from '../../../src/loggable-error.js';

/** What a database driver throws: the failed statement's parameters ride along on the error. */
function driverError(): Error {
  const err = new Error('unsupported Unicode escape sequence') as Error & Record<string, unknown>;
  err.name = 'error';
  err.code = '22P05';
  err.query = 'INSERT INTO events (id, data) VALUES ($1, $2)';
  err.params = ['e-1', { text: 'user: call Alice about the secret merger' }];
  err.detail = 'row holds: call Alice about the secret merger';
  return err;
}

describe('loggableError', () => {
  it('keeps kind, message and code; never the parameters, the statement or other driver fields', () => {
    const logged = loggableError(driverError(), false);
    expect(logged).toEqual({ type: 'error', message: 'unsupported Unicode escape sequence', code: '22P05' });
    expect(JSON.stringify(logged)).not.toContain('merger');
  });

  it('adds the stack only when debugging', () => {
    expect(loggableError(driverError(), true).stack).toMatch(/unsupported Unicode escape sequence\n\s+at /);
    expect(debugging(['--debug', 'watch'], undefined)).toBe(true);
    expect(debugging(['watch'], 'debug')).toBe(true);
    expect(debugging(['watch'], 'warn')).toBe(false);
    expect(debugging(['watch'], undefined)).toBe(false);
  });

  it('bounds a long message and describes a thrown non-error', () => {
    expect((loggableError(new Error('x'.repeat(5000)), false).message as string).length).toBe(500);
    expect(loggableError('plain string', false)).toEqual({ message: 'plain string' });
  });
});
