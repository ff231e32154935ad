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

/** Turns of a Codex rollout: user/assistant messages, tool calls and reasoning as placeholders. */
export function codexTurns(entries: readonly Entry[]): Turn[] {
  const turns: Turn[] = [];
  for (const e of entries) {
    const item = itemOf(e);
    if (!item) continue;
    let turn: Turn | null = null;
    if (item.type === 'message' && (item.role === 'user' || item.role === 'assistant')) {
      const text = partsText(item.content).trim();
      if (text !== '' && !(item.role === 'user' && SYSTEM_USER_TEXT.test(text))) turn = { role: item.role, text };
    } else if (item.type === 'function_call' || item.type === 'custom_tool_call' || item.type === 'local_shell_call') {
      turn = { role: 'assistant', text: `[tool: ${typeof item.name === 'string' ? item.name : 'shell'}]` };
    } else if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') {
      turn = { role: 'user', text: '[tool result]' };
    } else if (item.type === 'reasoning') {
      turn = { role: 'assistant', text: '[thinking]' };
    }
    if (turn) turns.push(turn);
  }
  return turns;
}

/** Hook context Codex injected earlier: developer messages it tagged as hook additional context. */
export function codexHookBlocks(entries: readonly Entry[]): string[] {
  const blocks: string[] = [];
  for (const e of entries) {
    const item = itemOf(e);
    if (!item || item.type !== 'message' || item.role !== 'developer') continue;
    const kinds = item.internal_chat_message_metadata_passthrough?.content_item_kinds;
    if (!Array.isArray(kinds) || !kinds.includes('hooks.additional_context')) continue;
    blocks.push(partsText(item.content));
  }
  return blocks;
}
