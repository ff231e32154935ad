import type { Turn } from '../context/turn.js';

type Entry = Record<string, unknown>;

/** One content block of a Claude Code message as turn text. */
function blockText(block: unknown): string {
  if (typeof block === 'string') return block;
  if (block === null || typeof block !== 'object') return '';
  const b = block as { type?: unknown; text?: unknown; name?: unknown };
  switch (b.type) {
    case 'text':
      return typeof b.text === 'string' ? b.text : '';
    case 'tool_use':
    case 'server_tool_use':
      return `[tool: ${typeof b.name === 'string' ? b.name : 'unknown'}]`;
    case 'tool_result':
      return '[tool result]';
    case 'thinking':
    case 'redacted_thinking':
      return '[thinking]';
    case 'image':
      return '[image]';
    default:
      return '';
  }
}

/** The text of a message's content: a string, or its blocks joined by `\n`. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map(blockText)
    .filter((t) => t !== '')
    .join('\n');
}

/** The turn of one Claude Code entry: `user`/`assistant` off the sidechain (subagent traffic), non-empty; else null. */
export function claudeCodeTurn(e: Entry): Turn | null {
  if ((e.type !== 'user' && e.type !== 'assistant') || e.isSidechain === true) return null;
  const message = e.message as { content?: unknown } | undefined;
  const text = contentText(message?.content).trim();
  return text === '' ? null : { role: e.type, text };
}

/** An assistant entry carrying token usage (the pressure notice reads the last two). */
export const hasUsage = (e: Entry): boolean =>
  e.type === 'assistant' && typeof (e.message as { usage?: unknown } | undefined)?.usage === 'object';
