import { chmodSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { outsideCommand } from '../command-io.js';
import { logger } from '../logger.js';
import { LineSplitter, LineTooLongError } from '../serve-client/line-splitter.js';
import { ERRORS, MAX_REQUEST_BYTES, PROTOCOL_VERSION } from '../serve-client/protocol.js';
import { decodeRequestLine } from './request-line.js';
import { secretChecker } from './secret-check.js';

/** One accepted connection, after its request line was read and authenticated. */
export interface Connection {
  socket: Socket;
  /** Bytes that followed the request line (a streamed command's first stdin bytes). */
  rest: Buffer;
  /** Writes the final response line and ends the connection; resolves once it was written. */
  respond(body: Record<string, unknown>): Promise<void>;
  /** Writes one intermediate line (a streamed command's output frame). */
  frame(body: Record<string, unknown>): void;
  readonly responded: boolean;
}

export type RequestHandler = (request: Record<string, unknown>, conn: Connection) => Promise<void>;

/** A client that connects and never finishes its request line is dropped after this long. */
const REQUEST_LINE_TIMEOUT_MS = 10_000;


/**
 * The serve socket: a Unix socket, owner-only, one JSON request line per
 * connection — anything after the line is never read as a second request — authenticated by
 * the secret before anything else is looked at.
 */
export class SocketServer {
  private readonly server: Server;
  private readonly active = new Set<Promise<void>>();
  private readonly secretMatches: (presented: unknown) => boolean;

  constructor(
    private readonly path: string,
    secret: string,
    private readonly handle: RequestHandler,
  ) {
    this.secretMatches = secretChecker(secret);
    // Half-open: a client that ended its stdin still receives the command's output.
    this.server = createServer({ allowHalfOpen: true }, (socket) => outsideCommand(() => this.accept(socket)));
  }

  /** Listens with owner-only permissions (the run folder is 0700 as well). */
  listen(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const umask = process.umask(0o177);
      this.server.once('error', reject);
      this.server.listen(this.path, () => {
        this.server.off('error', reject);
        resolve();
      });
      process.umask(umask);
    }).then(() => chmodSync(this.path, 0o600));
  }

  /** Stops accepting (the socket file goes away), then waits for every request in flight. */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    while (this.active.size > 0) await Promise.allSettled([...this.active]);
  }

  /** Stops accepting without waiting (requests in flight go on). */
  stopAccepting(): void {
    if (this.server.listening) this.server.close();
  }

  private accept(socket: Socket): void {
    socket.on('error', () => {});
    const splitter = new LineSplitter(MAX_REQUEST_BYTES);
    const timer = setTimeout(() => socket.destroy(), REQUEST_LINE_TIMEOUT_MS);
    const stop = (): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.pause();
    };
    const onData = (chunk: Buffer): void => {
      let first: { line: string; rest: Buffer } | null;
      try {
        first = splitter.pushFirst(chunk);
      } catch (err) {
        if (!(err instanceof LineTooLongError)) throw err;
        stop();
        refuse(socket, ERRORS.requestTooLarge, `request line over ${MAX_REQUEST_BYTES} bytes`);
        return;
      }
      if (first === null) return;
      stop();
      this.track(this.dispatch(socket, first.line, first.rest));
    };
    // A request sent without its newline still counts once the client ends its side.
    const onEnd = (): void => {
      stop();
      const line = splitter.flush();
      if (line.trim() === '') socket.destroy();
      else this.track(this.dispatch(socket, line, Buffer.alloc(0)));
    };
    socket.on('data', onData);
    socket.on('end', onEnd);
  }

  private track(p: Promise<void>): void {
    this.active.add(p);
    void p.finally(() => this.active.delete(p));
  }

  private async dispatch(socket: Socket, line: string, rest: Buffer): Promise<void> {
    const decoded = decodeRequestLine(line, this.secretMatches);
    if (!decoded.ok) return refuse(socket, decoded.error, decoded.message);
    const req = decoded.request;
    const conn = connection(socket, rest);
    try {
      await this.handle(req, conn);
    } catch (err) {
      logger.error({ err, kind: req.kind }, 'serve request failed');
      if (!conn.responded) await conn.respond({ ok: false, error: ERRORS.internal, message: 'the request failed inside serve' });
    }
  }
}

function writeLine(socket: Socket, body: Record<string, unknown>, end: boolean): Promise<void> {
  const line = `${JSON.stringify({ v: PROTOCOL_VERSION, ...body })}\n`;
  return new Promise((resolve) => {
    if (socket.destroyed || !socket.writable) return resolve();
    if (end) socket.end(line, () => resolve());
    else socket.write(line, () => resolve());
  });
}

function refuse(socket: Socket, error: string, message: string): Promise<void> {
  return writeLine(socket, { ok: false, error, message }, true).then(() => {
    socket.destroySoon();
  });
}

function connection(socket: Socket, rest: Buffer): Connection {
  let responded = false;
  return {
    socket,
    rest,
    get responded() {
      return responded;
    },
    respond(body) {
      responded = true;
      return writeLine(socket, body, true).then(() => {
        // Nothing after the request line is ever read as another request.
        socket.destroySoon();
      });
    },
    frame(body) {
      void writeLine(socket, body, false);
    },
  };
}
