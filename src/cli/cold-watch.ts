import { PassThrough } from 'node:stream';
import { parseArgs } from 'node:util';
import { ColdWatch } from '../cold/cold-watch.js';
import { snapshotCurrent } from '../cold/cold-files.js';
import { watchOutput } from '../context/render.js';
import { resolveHome } from '../home.js';
import { decidesAsRemote } from '../ops/caller-scope.js';
import { ensureServe } from '../serve-client/autostart.js';
import { topologySettings } from '../../streams/topology-settings.js';
import { callerOf, LEAN_GLOBAL_OPTIONS } from './globals.js';
import { errLine, out } from './output.js';
import { sessionSettings, WATCH_CONTINUED_ENV } from './watch-settings.js';

/** The rest of a `watch` for serve (or, when none could start, this process): its command line and its stdin. */
export interface WatchHandOff {
  args: string[];
  input: NodeJS.ReadableStream;
}

/** Lines decided (and spooled) at a time on the cold path. */
const SLICE_LINES = 200;

const OPTIONS = {
  ...LEAN_GLOBAL_OPTIONS,
  'window-turns': { type: 'string' },
  'max-pages': { type: 'string' },
  'min-confidence': { type: 'string' },
} as const;

/**
 * `watch` when no serve ran and one was just started in the background: while it opens the
 * database, this process is ready at once and decides the first turns on the cold path
 * (`ColdWatch`), printing as `watch` prints. When serve answers — or at the end of input — the
 * rest of stdin goes to serve as the same session, which first appends the spooled turns, so the
 * session goes on from the next number. Only a plain command line of a new session with a
 * current snapshot takes this path (no `--session-id`: its last number is in the log; not with
 * the learning gate, whose state is in the database); anything else returns null and `watch`
 * runs as always.
 */
export async function coldWatch(args: readonly string[]): Promise<WatchHandOff | null> {
  let plan: ReturnType<typeof planOf>;
  try {
    plan = planOf(args);
  } catch {
    plan = null;
  }
  if (plan === null || !snapshotCurrent(plan.home)) return null;
  const topology = topologySettings(plan.home);
  if (topology.learning === true) return null;
  const sessionId = `watch-${process.pid}-${Date.now().toString(36)}`;
  const session = new ColdWatch(plan.home, { sessionId, sourceId: plan.source, settings: plan.settings }, topology);
  // Resolves once serve answers (or could not start): the moment to hand over.
  const serveUp = ensureServe(plan.home).then(() => true, () => true);
  errLine(`[watch] session ${sessionId} ready`);
  const rest = await decideUntilServe(session, plan.json, sessionId, serveUp);
  await serveUp;
  process.env[WATCH_CONTINUED_ENV] = sessionId;
  return { args: [...args, '--session-id', sessionId], input: rest };
}

/**
 * Reads stdin line by line (split on the newline byte, so a character is never cut) and decides
 * each chunk's complete lines on the cold path, until serve is up, the input ends, an interrupt
 * ends it, or the cold path can no longer answer. Returns what serve is to read: the lines not
 * decided here, then the rest of stdin.
 */
function decideUntilServe(session: ColdWatch, json: boolean, sessionId: string, serveUp: Promise<boolean>): Promise<NodeJS.ReadableStream> {
  const input = process.stdin;
  let carry: Buffer = Buffer.alloc(0);
  let up = false;
  return new Promise((resolve) => {
    let done = false;
    const finish = (ended: boolean): void => {
      if (done) return;
      done = true;
      input.off('data', onData);
      input.off('end', onEnd);
      process.off('SIGINT', onInterrupt);
      process.off('SIGTERM', onInterrupt);
      input.pause();
      const rest = new PassThrough();
      if (ended) rest.end(carry);
      else {
        rest.write(carry);
        input.pipe(rest);
      }
      resolve(rest);
    };
    const onData = (chunk: Buffer): void => {
      const text = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
      const end = text.lastIndexOf(10);
      if (end < 0) {
        carry = text;
        return;
      }
      const lines = text.subarray(0, end).toString('utf8').split('\n');
      // In slices, so the first pages print while a long piped chunk is still being read.
      for (let from = 0; from < lines.length; from += SLICE_LINES) {
        const slice = lines.slice(from, from + SLICE_LINES);
        const decisions = session.decide(slice);
        if (decisions === null) {
          // Nothing of these lines was taken: serve reads them.
          carry = Buffer.concat([Buffer.from(`${lines.slice(from).join('\n')}\n`, 'utf8'), text.subarray(end + 1)]);
          finish(false);
          return;
        }
        let printed = '';
        for (const d of decisions) if (d.event.data.session_id === sessionId) printed += watchOutput(d.volunteered, d.turn, sessionId, json);
        if (printed !== '') out(printed);
      }
      carry = Buffer.from(text.subarray(end + 1));
      if (up) finish(false);
    };
    const onEnd = (): void => finish(true);
    // An interrupt ends the input, as for `watch` itself: what was read is handed over.
    const onInterrupt = (): void => finish(true);
    input.on('data', onData);
    input.on('end', onEnd);
    process.once('SIGINT', onInterrupt);
    process.once('SIGTERM', onInterrupt);
    void serveUp.then(() => {
      up = true;
      // Between chunks (a person typing, a quiet pipe): hand over now.
      finish(false);
    });
  });
}

/** The command line as the program would read it, or null for anything `watch` should handle itself. */
function planOf(args: readonly string[]) {
  const { values, positionals } = parseArgs({ args: [...args], options: OPTIONS, strict: true, allowPositionals: true });
  if (positionals.length !== 1 || positionals[0] !== 'watch') return null;
  const caller = callerOf(values);
  const home = resolveHome(values.home);
  const settings = sessionSettings(home, { windowTurns: values['window-turns'], maxPages: values['max-pages'], minConfidence: values['min-confidence'] }, decidesAsRemote(caller));
  return { home, source: caller.source, json: values.json === true, settings };
}
