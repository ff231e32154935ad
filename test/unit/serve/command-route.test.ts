import { describe, expect, it } from 'vitest';
import { commandRoute } from '../../../src/serve/command-route.js';

const env = { HOME: '/home/u' };

describe('commandRoute (which commands a running serve runs)', () => {
  it('forwards brain commands, with the home the program will use', () => {
    expect(commandRoute(['--home', '/b', 'page', 'get', 'x'], env)).toEqual({ command: 'page', home: '/b', forward: true, autostart: true });
    expect(commandRoute(['stats'], { ...env, BRAINSTREAM_HOME: '/h' })).toEqual({ command: 'stats', home: '/h', forward: true, autostart: true });
  });

  it('starts serve for brain commands, not for doctor or config', () => {
    for (const c of ['volunteer-context', 'watch', 'page', 'call', 'stats', 'import']) expect(commandRoute([c], env).autostart).toBe(true);
    for (const c of ['doctor', 'config', 'serve', 'mcp', 'hook']) expect(commandRoute([c], env).autostart).toBe(false);
    expect(commandRoute(['page', '--help'], env).autostart).toBe(false);
  });

  it('keeps servers, hooks and the Kafka commands local', () => {
    for (const c of ['serve', 'mcp', 'hook', 'bootstrap', 'publish', 'consume', 'lag']) expect(commandRoute([c], env).forward).toBe(false);
  });

  it('keeps any command given --kafka local: it addresses a deployment, not this home', () => {
    expect(commandRoute(['replay', '--kafka', '--min-confidence', '0.7'], env)).toMatchObject({ command: 'replay', forward: false });
    expect(commandRoute(['purge', '--kafka=127.0.0.1:9092', '--dry-run'], env).forward).toBe(false);
    expect(commandRoute(['replay', '--min-confidence', '0.7'], env).forward).toBe(true);
  });

  it('help and version run locally; a value of a global is not the command', () => {
    expect(commandRoute(['page', '--help'], env).forward).toBe(false);
    expect(commandRoute(['--as', 'remote', 'page', 'list'], env)).toMatchObject({ command: 'page', forward: true });
  });
});
