import { forwardedIo } from '../command-io.js';
import { isForwardedEnvKey } from './forwarded-env.js';

let installed = false;

/**
 * Makes `process.env` (the brainstream keys and home folders) and `process.cwd()` answer per
 * forwarded command, in the process that hosts the brain. Commands read both directly (source,
 * home, config overrides, relative paths through path.resolve); this keeps a forwarded run
 * identical to running the command in the caller's shell, even with several running at once.
 * Outside a forwarded command everything is the process's own.
 */
export function scopeProcessToRequests(): void {
  if (installed) return;
  installed = true;
  const real = process.env;
  const callerEnv = (key: string | symbol): Record<string, string> | undefined => {
    if (typeof key !== 'string' || !isForwardedEnvKey(key)) return undefined;
    const io = forwardedIo();
    return io ? (io.env ?? {}) : undefined;
  };
  process.env = new Proxy(real, {
    get: (target, key) => {
      const env = callerEnv(key);
      return env ? env[key as string] : Reflect.get(target, key);
    },
    has: (target, key) => {
      const env = callerEnv(key);
      return env ? Object.hasOwn(env, key as string) : Reflect.has(target, key);
    },
    set: (target, key, value) => {
      const env = callerEnv(key);
      if (env) env[key as string] = String(value);
      else Reflect.set(target, key, String(value));
      return true;
    },
    deleteProperty: (target, key) => {
      const env = callerEnv(key);
      if (env) delete env[key as string];
      else Reflect.deleteProperty(target, key);
      return true;
    },
    ownKeys: (target) => {
      const io = forwardedIo();
      if (!io) return Reflect.ownKeys(target);
      const own = Reflect.ownKeys(target).filter((k) => typeof k !== 'string' || !isForwardedEnvKey(k));
      return [...own, ...Object.keys(io.env ?? {})];
    },
    getOwnPropertyDescriptor: (target, key) => {
      const env = callerEnv(key);
      if (!env) return Reflect.getOwnPropertyDescriptor(target, key);
      return Object.hasOwn(env, key as string)
        ? { value: env[key as string], writable: true, enumerable: true, configurable: true }
        : undefined;
    },
  });
  const realCwd = process.cwd.bind(process);
  process.cwd = () => forwardedIo()?.cwd ?? realCwd();
}
