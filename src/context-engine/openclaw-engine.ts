import type { CoreContext } from './core-context.js';

/**
 * The parts of OpenClaw's documented `ContextEngine` contract this engine uses
 * (docs.openclaw.ai/concepts/context-engine). Messages are the host's own objects: passed
 * through untouched, only their text is counted.
 */
export interface AssembleParams {
  sessionId: string;
  sessionKey?: string;
  messages: unknown[];
  tokenBudget?: number;
}

export interface AssembleResult {
  messages: unknown[];
  estimatedTokens: number;
  systemPromptAddition?: string;
}

export interface CompactResult {
  ok: boolean;
  compacted: boolean;
  reason?: string;
  result?: unknown;
}

/** The host's `compact()` parameters, handed on whole. */
export type CompactParams = { sessionId: string } & Record<string, unknown>;

export interface OpenClawContextEngine {
  readonly info: { id: string; name: string; version?: string; ownsCompaction: boolean };
  ingest(params: { sessionId: string; message: unknown }): Promise<{ ingested: boolean }>;
  assemble(params: AssembleParams): Promise<AssembleResult>;
  compact(params: CompactParams): Promise<CompactResult>;
}

/** Runs OpenClaw's own compaction (the SDK's `delegateCompactionToRuntime`). */
export type CompactionDelegate = (params: CompactParams) => Promise<CompactResult>;

export const OPENCLAW_ENGINE_ID = 'brainstream';

/** Characters of a message's text: a string content, or the `text` of its content parts. */
function textChars(message: unknown): number {
  const content = (message as { content?: unknown } | null)?.content;
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  let n = 0;
  for (const part of content) {
    const text = (part as { text?: unknown } | null)?.text;
    if (typeof text === 'string') n += text.length;
  }
  return n;
}

/** A rough token estimate (4 characters a token, as context_pack counts) of messages plus the addition. */
export function estimateTokens(messages: readonly unknown[], addition: string): number {
  let chars = addition.length;
  for (const m of messages) chars += textChars(m);
  return Math.ceil(chars / 4);
}

/**
 * An OpenClaw context engine that keeps OpenClaw's own behaviour (messages as they are, OpenClaw's
 * compaction) and adds the owner's core block to the system prompt of every run.
 * It does not own compaction, so `compact()` hands the call to OpenClaw's runtime.
 */
export function createOpenClawCoreEngine(core: CoreContext, compactWithRuntime: CompactionDelegate): OpenClawContextEngine {
  return {
    info: { id: OPENCLAW_ENGINE_ID, name: 'brainstream core memory', ownsCompaction: false },
    async ingest() {
      // OpenClaw keeps the transcript; core does not depend on it.
      return { ingested: false };
    },
    async assemble(params) {
      const block = await core.sessionBlock({ sessionKey: params.sessionKey ?? params.sessionId });
      return {
        messages: params.messages,
        estimatedTokens: estimateTokens(params.messages, block),
        ...(block === '' ? {} : { systemPromptAddition: block }),
      };
    },
    compact: (params) => compactWithRuntime(params),
  };
}
