import { Activity, tracked } from './activity.js';
import { randomBytes } from 'node:crypto';
import { chmodSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { isAbsolute } from 'node:path';
import { PassThrough } from 'node:stream';
import { homePaths } from '../home.js';
import { outsideCommand, runWithIo, type CliIo } from '../command-io.js';
import { harnessOf, HOOK_EVENTS, type HookEvent } from '../hooks/hook-argv.js';
import { logger } from '../logger.js';
import { parseHookRequest, type HookRequest } from './hook-request.js';
import { secretChecker } from './secret-check.js';

const HOOK_GREETING = 'brainstream-hook';
const MAX_REQUEST_BYTES = 4 * 1024 * 1024;
/** A client has this long to send its request (it sends it at once). */
const REQUEST_TIMEOUT_MS = 1000;

/**
 * The fast hook lane: a loopback TCP listener that runs `hook <event>` inside serve for the
 * bash client bootstrap registers, so a prompt costs a bash start and one round trip instead of
 * a Node start. bash reaches TCP (`/dev/tcp`) but not Unix sockets, hence the port. Both sides
 * prove themselves: serve greets with a per-run token the client checks against the owner-only
 * port file before it sends anything (a stale port now held by another program learns
 * nothing), and the client sends the serve secret, also owner-only. The hook run is the same
 * code as `brainstream hook`, with the caller's environment, so its output is identical.
 */
export class HookListener {
  private readonly server: Server;
  private readonly token = randomBytes(16).toString('hex');
  private readonly secretMatches: (presented: unknown) => boolean;
  private readonly active = new Set<Promise<void>>();
  private readonly log = logger.child({ component: 'hook-listener' });

  constructor(
    private readonly home: string,
    secret: string,
    private readonly activity: Activity = new Activity(),
  ) {
    this.secretMatches = secretChecker(secret);
    this.server = createServer((socket) => outsideCommand(() => this.accept(socket)));
  }

  /** Listens on an ephemeral loopback port and publishes it in the port file. */
  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const { port } = this.server.address() as AddressInfo;
    const file = homePaths(this.home).hookPort;
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${port} ${this.token}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  }

  /** Stops accepting, removes the port file, waits for the runs in flight. */
  async close(): Promise<void> {
    rmSync(homePaths(this.home).hookPort, { force: true });
    if (this.server.listening) await new Promise<void>((resolve) => this.server.close(() => resolve()));
    while (this.active.size > 0) await Promise.allSettled([...this.active]);
  }

  private accept(socket: Socket): void {
    socket.on('error', () => {});
    socket.setNoDelay(true);
    socket.write(`${HOOK_GREETING} ${this.token}\n`);
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => socket.destroy(), REQUEST_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.length;
      let req;
      try {
        if (size > MAX_REQUEST_BYTES) throw new Error(`request over ${MAX_REQUEST_BYTES} bytes`);
        // The request ends with a NUL: nothing to parse before it arrives.
        if (!chunk.includes(0)) return;
        req = parseHookRequest(Buffer.concat(chunks));
      } catch (err) {
        this.log.warn({ err }, 'malformed fast-hook request refused');
        clearTimeout(timer);
        socket.destroy();
        return;
      }
      if (req === null) return;
      clearTimeout(timer);
      socket.off('data', onData);
      if (!this.secretMatches(req.secret)) {
        this.log.warn('fast-hook request with a wrong secret refused');
        socket.destroy();
        return;
      }
      const event = (HOOK_EVENTS as readonly string[]).includes(req.event) ? (req.event as HookEvent) : null;
      if (event === null) {
        socket.destroy();
        return;
      }
      const run = tracked(this.activity, () => this.run(event, req, socket));
      this.active.add(run);
      void run.finally(() => this.active.delete(run));
    };
    socket.on('data', onData);
  }

  private async run(event: HookEvent, req: HookRequest, socket: Socket): Promise<void> {
    const { harness, env, payload } = req;
    const stdin = new PassThrough();
    stdin.end(payload);
    let out = '';
    // The caller's environment for the run (process.env answers per forwarded context in serve).
    const io: CliIo = { stdout: () => {}, stderr: () => {}, stdin, stdinIsTTY: false, stderrIsTTY: false, forwarded: true, env, cwd: isAbsolute(req.cwd) ? req.cwd : process.cwd() };
    try {
      const { runHook } = await import('../hooks/hook-main.js');
      await runWithIo(io, () => runHook({ home: this.home, event, rawEvent: event, harness: harnessOf(harness) }, { stdin, write: (text) => void (out += text) }));
    } catch (err) {
      // runHook fails open by itself; this is a load failure. Nothing harmful is printed.
      this.log.warn({ err, event }, 'fast-hook run failed');
    }
    socket.end(out);
  }
}
