import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { logger } from '../../../src/logger.js';
import { LineSplitter, LineTooLongError } from '../../../src/serve-client/line-splitter.js';
import { ERRORS, PROTOCOL_VERSION } from '../../../src/serve-client/protocol.js';
import { decodeRequestLine } from '../../../src/serve/request-line.js';
import { requestRouter } from '../../../src/serve/request-router.js';
import { REQUEST_SCHEMAS } from '../../../src/serve-client/request-schemas.js';
import type { Connection } from '../../../src/serve/socket-server.js';
import type { ServeDeps } from '../../../src/serve/serve-deps.js';
import { secretChecker } from '../../../src/serve/secret-check.js';
import { fuzzRuns, hostileBytes, hostileText, mutatedJson } from '../../support/fuzz.js';

const SECRET = 's3cret';

/** Requests the hook, the CLI client and doctor send, to be mutated. */
const REQUESTS: Record<string, unknown>[] = [
  { v: 1, secret: SECRET, kind: 'turn_context', window: [{ role: 'user', text: 'Is Alice Example in?' }], prior_context: '', session_id: 's1', channel: 'claude-code', shown: ['people/alice-example'] },
  { v: 1, secret: SECRET, kind: 'turn_context', window: [{ role: 'tool', text: 'Dan Okafor will send it.' }], prior_context: '', session_id: 's1', channel: 'codex', tool: 'Bash' },
  { v: 1, secret: SECRET, kind: 'resolve', messages: [{ role: 'assistant', text: 'Carol Xu' }], source_id: 'default' },
  { v: 1, secret: SECRET, kind: 'core_block', source_id: 'work' },
  { v: 1, secret: SECRET, kind: 'ping' },
  { v: 1, secret: SECRET, kind: 'command', argv: ['page', 'get', 'x'], env: { BRAINSTREAM_SOURCE: 'a' }, cwd: '/tmp', stdin: '', stream: true, pid: 42 },
];
const KINDS = ['turn_context', 'resolve', 'core_block', 'ping', 'command', '__proto__', 'constructor', 'toString', 'hasOwnProperty', '', 'PING'];

/** A request line: a real request mutated (kind swapped too), cut short, or any text at all. */
const requestLine = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...REQUESTS).chain(mutatedJson), fc.option(fc.constantFrom(...KINDS), { nil: undefined })).map(([r, kind]) => JSON.stringify(kind !== undefined && r !== null && typeof r === 'object' && !Array.isArray(r) ? { ...r, kind } : r) ?? '') },
  { weight: 1, arbitrary: fc.constantFrom(...REQUESTS).chain((r) => { const l = JSON.stringify(r); return fc.nat(l.length).map((n) => l.slice(0, n)); }) },
  { weight: 1, arbitrary: hostileText(200) },
);

describe('serve request lines, whatever a peer sends', () => {
  it('split into exactly the lines between newlines, in any chunking, multi-byte characters kept whole', () => {
    fc.assert(
      fc.property(hostileBytes(300), fc.array(fc.nat(300), { maxLength: 6 }), (raw, cuts) => {
        const bytes = Buffer.from(raw);
        const at = [0, ...[...new Set(cuts.map((c) => Math.min(c, bytes.length)))].sort((a, b) => a - b), bytes.length];
        const splitter = new LineSplitter();
        const lines = at.slice(1).flatMap((end, i) => splitter.push(bytes.subarray(at[i], end)));
        lines.push(splitter.flush());
        const expected: string[] = [];
        for (let start = 0, nl = bytes.indexOf(0x0a); ; nl = bytes.indexOf(0x0a, start)) {
          expected.push(bytes.subarray(start, nl < 0 ? bytes.length : nl).toString('utf8'));
          if (nl < 0) break;
          start = nl + 1;
        }
        expect(lines).toEqual(expected);
      }),
      fuzzRuns(1000),
    );
  });

  it('over the byte limit are refused with LineTooLongError, never cut or merged', () => {
    fc.assert(
      fc.property(hostileBytes(200), fc.integer({ min: 1, max: 60 }), (raw, max) => {
        const bytes = Buffer.from(raw);
        const longest = Math.max(...bytes.toString('latin1').split('\n').map((l) => l.length));
        const firstLineBytes = bytes.indexOf(0x0a) < 0 ? bytes.length : bytes.indexOf(0x0a);
        try {
          const first = new LineSplitter(max).pushFirst(bytes);
          if (first !== null) {
            expect(first.line).toBe(bytes.subarray(0, firstLineBytes).toString('utf8'));
            expect(Buffer.concat([bytes.subarray(0, firstLineBytes), Buffer.from('\n'), first.rest])).toEqual(bytes);
          }
          expect(firstLineBytes).toBeLessThanOrEqual(max);
        } catch (err) {
          expect(err).toBeInstanceOf(LineTooLongError);
          expect(firstLineBytes).toBeGreaterThan(max);
        }
        const splitter = new LineSplitter(max);
        try {
          splitter.push(bytes);
          splitter.flush();
          // The last piece, sent without its newline, is held to the limit too.
          expect(longest).toBeLessThanOrEqual(max);
        } catch (err) {
          expect(err).toBeInstanceOf(LineTooLongError);
          expect(longest).toBeGreaterThan(max);
        }
      }),
      fuzzRuns(1000),
    );
  });

  it('decode to a request only when they are a JSON object with the right secret and version', () => {
    const matches = secretChecker(SECRET);
    fc.assert(
      fc.property(requestLine, (line) => {
        const decoded = decodeRequestLine(line, matches);
        let parsed: unknown;
        try {
          parsed = JSON.parse(line);
        } catch {
          parsed = undefined;
        }
        const object = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
        if (decoded.ok) {
          expect(object).not.toBeNull();
          expect(object!.secret).toBe(SECRET);
          expect(object!.v).toBe(PROTOCOL_VERSION);
          expect(decoded.request).toEqual(object);
        } else {
          expect(decoded.error).toBe(object === null ? ERRORS.invalidRequest : object.secret !== SECRET ? ERRORS.unauthorized : ERRORS.unsupportedVersion);
        }
      }),
      fuzzRuns(2000),
    );
  });

  it('are answered with unknown_kind or invalid_request, or handed to the handler of their kind as valid params; never a throw', async () => {
    /** Deps a handler would use: touching any of them marks the request as handed over. */
    let handed = false;
    const HANDED = new Error('stub deps');
    const deps = Promise.resolve(
      new Proxy({} as ServeDeps, {
        get(_target, prop) {
          if (prop === 'then') return undefined;
          handed = true;
          throw HANDED;
        },
      }),
    );
    const route = requestRouter(deps);
    const matches = secretChecker(SECRET);
    // Handlers log the stub's failure as a warning; the property only looks at what is answered.
    const level = logger.level;
    logger.level = 'silent';
    try {
      await fc.assert(
        fc.asyncProperty(requestLine, async (line) => {
          const decoded = decodeRequestLine(line, matches);
          if (!decoded.ok) return;
          const req = decoded.request;
          const responses: Record<string, unknown>[] = [];
          const conn = {
            rest: Buffer.alloc(0),
            get responded() {
              return responses.length > 0;
            },
            respond: (body: Record<string, unknown>) => {
              responses.push(body);
              return Promise.resolve();
            },
            frame: () => {},
          } as unknown as Connection;
          handed = false;
          try {
            await route(req, conn);
          } catch (err) {
            expect(err).toBe(HANDED);
          }
          const known = typeof req.kind === 'string' && Object.hasOwn(REQUEST_SCHEMAS, req.kind);
          const valid = known && REQUEST_SCHEMAS[req.kind as keyof typeof REQUEST_SCHEMAS].safeParse(req).success;
          if (handed) {
            expect(valid).toBe(true);
            return;
          }
          expect(responses).toHaveLength(1);
          const [body] = responses;
          expect(body!.ok).toBe(false);
          expect(typeof body!.message).toBe('string');
          expect(body!.error).toBe(known ? ERRORS.invalidRequest : ERRORS.unknownKind);
          // A valid request refused before its handler ran: only core_block, for its source id.
          if (valid) expect(req.kind).toBe('core_block');
        }),
        fuzzRuns(2000),
      );
    } finally {
      logger.level = level;
    }
  });
});
