import type { Turn } from '../context/turn.js';

type Entry = Record<string, unknown>;

interface CodexItem {
  type?: unknown;
  role?: unknown;
  name?: unknown;
  content?: unknown;
  internal_chat_message_metadata_passthrough?: { content_item_kinds?: unknown };
}

/** Codex rollout lines carry `{type: "response_item", payload: {…}}`. */
const itemOf = (e: Entry): CodexItem | null =>
  e.type === 'response_item' && e.payload !== null && typeof e.payload === 'object' ? (e.payload as CodexItem) : null;

function partsText(content: unknown): string {
  if (!Array.isArray(content)) return typeof content === 'string' ? content : '';
  return content
    .map((p: { type?: unknown; text?: unknown }) =>
      p?.type === 'input_image' ? '[image]' : typeof p?.text === 'string' ? p.text : '',
    )
    .filter((t) => t !== '')
    .join('\n');
}

// Codex records its own environment and instruction files as user messages; they are not turns.
const SYSTEM_USER_TEXT = /^\s*(<environment_context>|<user_instructions>|# AGENTS\.md instructions)/;

/** The turn of one rollout line: a user/assistant message, or a tool call, result or reasoning placeholder. */
export function codexTurn(e: Entry): Turn | null {
  const item = itemOf(e);
  if (!item) return null;
  if (item.type === 'message' && (item.role === 'user' || item.role === 'assistant')) {
    const text = partsText(item.content).trim();
    return text === '' || (item.role === 'user' && SYSTEM_USER_TEXT.test(text)) ? null : { role: item.role, text };
  }
  if (item.type === 'function_call' || item.type === 'custom_tool_call' || item.type === 'local_shell_call') {
    return { role: 'assistant', text: `[tool: ${typeof item.name === 'string' ? item.name : 'shell'}]` };
  }
  if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') return { role: 'user', text: '[tool result]' };
  if (item.type === 'reasoning') return { role: 'assistant', text: '[thinking]' };
  return null;
}

/** Hook context Codex injected earlier: a developer message it tagged as hook additional context. */
export function codexHookBlock(e: Entry): string | null {
  const item = itemOf(e);
  if (!item || item.type !== 'message' || item.role !== 'developer') return null;
  const kinds = item.internal_chat_message_metadata_passthrough?.content_item_kinds;
  return Array.isArray(kinds) && kinds.includes('hooks.additional_context') ? partsText(item.content) : null;
}

/** A cheap pre-filter: only lines containing this can hold a Codex hook block. */
export const CODEX_BLOCK_HINT = 'hooks.additional_context';
