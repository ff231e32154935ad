import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { homePaths } from '../home.js';
import { LineSplitter } from './line-splitter.js';
import { MAX_REQUEST_BYTES, PROTOCOL_VERSION, type ErrorResponse, type OkResponse, type ServeRequest } from './protocol.js';

/**
 * Why a request never got an answer: no serve is running (`no_serve`), the socket failed
 * (`ipc_unavailable`), the deadline passed (`deadline`), or the request line is over the
 * 256 KB limit (`request_too_large`, checked before sending).
 */
export class ServeRequestError extends Error {
  constructor(
    readonly reason: 'no_serve' | 'ipc_unavailable' | 'deadline' | 'request_too_large',
    message: string,
  ) {
    super(message);
    this.name = 'ServeRequestError';
  }
}

/** The secret of the serve (or watch) owning `home`, or null when none is running. */
function readServeSecret(home: string): string | null {
  try {
    return readFileSync(homePaths(home).secret, 'utf8').trim() || null;
  } catch {
    return null;
  }
}

const NO_LISTENER = new Set(['ENOENT', 'ECONNREFUSED', 'ENOTSOCK']);

/**
 * Connects to the socket of `home`. Null when nothing listens there (no socket file, or a stale
 * one left by a killed process): the caller opens the brain itself.
 */
export function connectServe(home: string): Promise<{ socket: Socket; secret: string } | null> {
  const secret = readServeSecret(home);
  if (secret === null) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const socket = connect({ path: homePaths(home).socket, allowHalfOpen: true });
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      resolve({ socket, secret });
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      socket.destroy();
      if (NO_LISTENER.has(err.code ?? '')) resolve(null);
      else reject(new ServeRequestError('ipc_unavailable', `cannot reach serve: ${err.message}`));
    });
  });
}

/** The request line (secret and version added), newline-terminated. */
export function requestLine(payload: ServeRequest, secret: string): string {
  return `${JSON.stringify({ v: PROTOCOL_VERSION, secret, ...payload })}\n`;
}

export type ServeResponse<T = Record<string, unknown>> = OkResponse<T> | ErrorResponse;

/**
 * One request to the serve of `home`, one response. Refusals come back as `{ok: false, error}`;
 * a missing serve, a socket failure or the deadline throw ServeRequestError.
 */
export async function request<T = Record<string, unknown>>(
  home: string,
  payload: ServeRequest,
  options: { timeoutMs?: number } = {},
): Promise<ServeResponse<T>> {
  const deadline = options.timeoutMs ?? 5_000;
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let socket: Socket | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      socket?.destroy();
      reject(new ServeRequestError('deadline', `serve did not answer within ${deadline} ms`));
    }, deadline);
  });
  try {
    const conn = await Promise.race([connectServe(home), timeout]);
    if (conn === null) throw new ServeRequestError('no_serve', 'no serve is running for this brain');
    socket = conn.socket;
    if (Date.now() - started >= deadline) throw new ServeRequestError('deadline', `serve did not answer within ${deadline} ms`);
    const line = requestLine(payload, conn.secret);
    if (Buffer.byteLength(line) - 1 > MAX_REQUEST_BYTES) {
      throw new ServeRequestError('request_too_large', `request line over ${MAX_REQUEST_BYTES} bytes`);
    }
    return await Promise.race([exchange(conn.socket, line), timeout]);
  } finally {
    clearTimeout(timer);
    socket?.destroy();
  }
}

/** Writes the request line and resolves with the first response line. */
function exchange<T>(socket: Socket, line: string): Promise<ServeResponse<T>> {
  return new Promise((resolve, reject) => {
    const lines = new LineSplitter();
    socket.on('data', (chunk: Buffer) => {
      const [first] = lines.push(chunk);
      if (first === undefined) return;
      try {
        resolve(JSON.parse(first) as ServeResponse<T>);
      } catch {
        reject(new ServeRequestError('ipc_unavailable', 'serve sent an unreadable response'));
      }
    });
    socket.once('error', (err) => reject(new ServeRequestError('ipc_unavailable', `serve connection failed: ${err.message}`)));
    socket.once('close', () => reject(new ServeRequestError('ipc_unavailable', 'serve closed the connection without answering')));
    socket.end(line);
  });
}
