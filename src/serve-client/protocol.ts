/**
 * The serve socket protocol: one JSON request line and one JSON response
 * line per connection; a streamed command answers with output frames and a final line.
 * Types only (no runtime dependencies), so clients load nothing heavy.
 */
import type { PageJson } from '../context/render.js';

export const PROTOCOL_VERSION = 1;
/** A request line longer than this (newline excluded) is refused. */
export const MAX_REQUEST_BYTES = 256 * 1024;

export interface WireTurn {
  role: 'user' | 'assistant' | 'tool';
  text: string;
}

export interface TurnContextRequest {
  kind: 'turn_context';
  window: WireTurn[];
  prior_context?: string;
  session_id?: string;
  source_id?: string;
  /** `claude-code`, `codex` or `opencode`; anything else is logged as `claude-code`. */
  channel?: string;
  /** Slugs the harness already showed in this session (from its transcript): never pushed again. */
  shown?: string[];
  /** A tool turn (the post-tool hook): the tool's name; the last turn of `window` is its text. */
  tool?: string;
}

export interface ResolveRequest {
  kind: 'resolve';
  /** The recent user/assistant messages, oldest first (the last 12 are used). */
  messages: WireTurn[];
  prior_context?: string;
  session_id?: string;
  source_id?: string;
}

export interface CoreBlockRequest {
  kind: 'core_block';
  source_id?: string;
}

export interface PingRequest {
  kind: 'ping';
}

/**
 * A CLI command run inside serve. `stdin` inline, or `stdin_stream`: the raw stdin bytes follow
 * the request line until the client half-closes. `stream`: output comes as frames as it is written.
 */
export interface CommandRequest {
  kind: 'command';
  argv: string[];
  env?: Record<string, string>;
  cwd?: string;
  stdin?: string;
  stdin_stream?: boolean;
  stdin_tty?: boolean;
  /** The client's stderr is a terminal: long commands send progress frames for it to draw. */
  stderr_tty?: boolean;
  stream?: boolean;
  /** The client's process id. */
  pid?: number;
}

/**
 * A remote caller on whose behalf a client (the MCP server) asks serve to run an operation. There
 * is no kind: serve runs every such request as a remote caller, whoever holds the socket.
 */
export interface WireCaller {
  /** For request replay keys, e.g. `mcp:<client name>`. */
  identity: string;
  /** The bound (write) source. */
  source: string;
  /** The sources the caller may read (at least one). */
  grant: string[];
}

/**
 * Runs one named operation inside serve (the registry's `runOperation`), as `caller`. `env`: the
 * client's brainstream settings (`BRAINSTREAM_*`, home folders), seen by the operation instead of
 * serve's own, as for a forwarded command.
 */
export interface OperationRequest {
  kind: 'operation';
  op: string;
  params?: unknown;
  caller: WireCaller;
  env?: Record<string, string>;
}

export type ServeRequest = TurnContextRequest | ResolveRequest | CoreBlockRequest | PingRequest | CommandRequest | OperationRequest;

/** A page as turn_context and resolve return it (the page shape of `volunteer_context`). */
export type WirePage = PageJson;

export interface TurnContextResult {
  text: string;
  pointers: WirePage[];
  volunteered: WirePage[];
  degraded_reason: null | 'budget_trimmed' | 'server_budget';
}

export interface ResolveResult {
  text: string;
  pointers: WirePage[];
}

export interface CoreBlockResult {
  /** `memory.core.enabled`; when false `text` is "" (nothing is delivered). */
  enabled: boolean;
  text: string;
  /** Size of `text` in UTF-16 code units. */
  chars: number;
  /** Core revision (a hash) of the brain-wide block. */
  revision: string;
}

export interface PingResult {
  role: 'serve' | 'watch';
  pid: number;
  capabilities: string[];
  /** The version of the installation running it. */
  version: string;
  /** When it started (ISO 8601). */
  started_at: string;
}

/** An operation's answer: its result, or (as an error response) its error envelope's fields. */
export interface OperationResult {
  result: unknown;
}

export type OkResponse<T> = { v: 1; ok: true } & T;
export interface ErrorResponse {
  v: 1;
  ok: false;
  error: string;
  message?: string;
}

/** Error codes a response may carry. */
export const ERRORS = {
  unauthorized: 'unauthorized',
  requestTooLarge: 'request_too_large',
  invalidRequest: 'invalid_request',
  unsupportedVersion: 'unsupported_version',
  unknownKind: 'unknown_kind',
  unknownSource: 'unknown_source',
  notForwardable: 'not_forwardable',
  internal: 'internal_error',
} as const;
