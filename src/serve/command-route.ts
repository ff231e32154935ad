import { resolveHome } from '../home.js';

/**
 * Commands that never go through serve: serve itself, long-lived servers and hooks that talk to
 * serve on their own, commands that need no brain of this home (the distributed mode's Kafka
 * commands among them, and any command given `--kafka`), and help/version.
 */
export const LOCAL_COMMANDS: ReadonlySet<string> = new Set(['serve', 'service', 'mcp', 'hook', 'bootstrap', 'demo', 'help', 'publish', 'consume', 'lag', 'migrate']);

/**
 * Forwarded commands that never start serve: they report on it or on the home (doctor), or are
 * too small to be worth a daemon (config).
 */
const NO_AUTOSTART: ReadonlySet<string> = new Set(['doctor', 'config']);

/** Global options that take a value (the value is not the command name). */
const VALUE_GLOBALS = new Set(['--home', '--as', '--grant']);
const HELP_OR_VERSION = new Set(['-h', '--help', '-V', '--version']);

export interface CommandRoute {
  /** The command name, or null when there is none (help). */
  command: string | null;
  /** The brain's home, resolved as the program will resolve it. */
  home: string;
  /** True when a running serve (or watch) of `home` should run this command. */
  forward: boolean;
  /** True when serve is worth starting for this command when none runs. */
  autostart: boolean;
}

/**
 * Reads just enough of the command line to route it, without loading the program: which
 * command, which home, and whether serve may run it.
 */
export function commandRoute(args: readonly string[], env: NodeJS.ProcessEnv = process.env): CommandRoute {
  let command: string | null = null;
  let homeFlag: string | undefined;
  let helpOrVersion = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (HELP_OR_VERSION.has(a)) helpOrVersion = true;
    else if (a.startsWith('--home=')) homeFlag = a.slice('--home='.length);
    else if (VALUE_GLOBALS.has(a) && command === null) {
      if (a === '--home') homeFlag = args[i + 1];
      i++;
    } else if (a === '--home') {
      homeFlag = args[++i];
    } else if (command === null && !a.startsWith('-')) command = a;
  }
  const home = resolveHome(homeFlag, env);
  // `replay --kafka`, `purge --kafka`: a deployment's command, not this home's brain.
  const distributed = args.some((a) => a === '--kafka' || a.startsWith('--kafka='));
  const forward = command !== null && !helpOrVersion && !distributed && !LOCAL_COMMANDS.has(command);
  return { command, home, forward, autostart: forward && !NO_AUTOSTART.has(command!) };
}
