#!/usr/bin/env node
// Everything this process creates (database, socket, config, logs) is for its user alone.
process.umask(0o077);
// A reader that stopped reading (`… | head -1`) got what it wanted: end quietly, status 0. The
// brain's writes are committed transactions, so leaving mid-command loses nothing.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    process.exitCode = 1;
  });
}
import { parseHookArgs } from '../hooks/hook-argv.js';
import { commandRoute } from '../serve/command-route.js';

/**
 * Entry point. A command that needs the brain first tries the serve (or watch) owning it, so
 * commands never fight over the embedded database; only without one is the program loaded and
 * the brain opened here. The forwarding path loads no database, Kafka or MCP code.
 */
const args = process.argv.slice(2);
// Hooks run on every prompt: they start with nothing but their own small modules, then exit.
const hook = parseHookArgs(args);
if (hook) await (await import('../hooks/hook-main.js')).hookMain(hook);
const route = commandRoute(args);
let code: number | null = null;
let handOff: import('./cold-watch.js').WatchHandOff | null = null;
if (route.forward) {
  const { secureExistingHome } = await import('../home.js');
  try {
    secureExistingHome(route.home);
  } catch (err) {
    const { BrainstreamError } = await import('../errors.js');
    if (!(err instanceof BrainstreamError)) throw err;
    process.stderr.write(`brainstream: ${err.code}: ${err.message}\n`);
    process.exit(1);
  }
  if (route.autostart) {
    const { autostartEnabled, ensureServe } = await import('../serve-client/autostart.js');
    if (autostartEnabled()) {
      // A `watch` that starts serve decides its first turns on the cold path while serve opens the brain.
      if (route.command === 'watch' && (await ensureServe(route.home, { wait: false })) === 'started') {
        handOff = await (await import('./cold-watch.js')).coldWatch(args);
      }
      // Started (or found starting) here; when it cannot start, the command runs without it.
      if (handOff === null) await ensureServe(route.home);
    }
  }
  const { forwardCommand } = await import('./forward-command.js');
  code = await forwardCommand(route.home, handOff?.args ?? args, handOff?.input);
}
// No serve: a one-shot decision is answered from the page snapshot before the program loads.
let readAhead: Buffer | undefined;
if (code === null && route.command === 'volunteer-context') {
  const cold = await (await import('./cold-volunteer-context.js')).coldVolunteerContext(args);
  if (cold.answered) code = 0;
  else readAhead = cold.stdin;
}
if (code === null) {
  const [{ runProgram }, { runWithIo, processStreamsIo }] = await Promise.all([import('./program.js'), import('../command-io.js')]);
  const io = processStreamsIo();
  // What the lean path already read from stdin is the program's stdin.
  const { Readable } = await import('node:stream');
  const stdin = handOff?.input ?? (readAhead === undefined ? undefined : Readable.from([readAhead]));
  const withStdin = stdin === undefined ? io : { ...io, stdin, stdinIsTTY: false };
  code = await runWithIo(withStdin, () => runProgram(handOff?.args ?? args));
}
// A command may also have set process.exitCode itself; a failure wins.
process.exitCode = code !== 0 ? code : Number(process.exitCode ?? 0);
