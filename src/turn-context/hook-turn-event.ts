import { makeEvent, type Envelope } from '../domain/events.js';
import { MAX_SHOWN_SLUGS, type Channel, type SessionSettings } from '../domain/event-schemas.js';
import type { PushSettings } from '../config/push-settings.js';
import { MAX_SLUG_CHARS } from '../domain/slug-length.js';
import { storableLine } from '../context/storable-line.js';
import type { TurnContextParams } from '../serve-client/request-schemas.js';
import { TURN_POINTER_CAP } from './turn-context.js';

/**
 * The knobs a harness turn is decided with, written into its event so a replay decides it the
 * same way. Every harness turn runs with the rights of the agent's MCP caller (remote: private
 * pages never resolve), so a pushed page is one `get_page` over MCP can open. A prompt also
 * gets pointers to the pages it names; a tool turn has its own gate and cap.
 */
function hookTurnSettings(tool: boolean, settings: PushSettings, fresh = false): SessionSettings {
  const own: SessionSettings = tool
    ? { remote: true, min_confidence: settings.toolMinConfidence, max_pages: settings.toolMaxPages }
    : { remote: true, pointers: Math.min(TURN_POINTER_CAP, settings.maxPointers) };
  return fresh ? { ...own, fresh: true } : own;
}

export interface HookTurnInput {
  req: TurnContextParams;
  sessionId: string;
  sourceId: string;
  channel: Channel;
  turn: number;
  settings: PushSettings;
  /** Decided on the cold path, without the session's earlier turns (see SessionSettings.fresh). */
  fresh?: boolean;
}

/**
 * The turn event of one hook request: the prompt (the window's last user turn) or, for the
 * post-tool hook, the tool's text. Null when there is nothing to decide.
 */
export function hookTurnEvent(input: HookTurnInput): Envelope<'turn.appended'> | null {
  const { req } = input;
  const tool = req.tool !== undefined && req.tool !== '' ? req.tool.slice(0, 128) : undefined;
  const last = req.window.at(-1);
  if (!last || last.role !== (tool ? 'tool' : 'user')) return null;
  const text = storableLine(last.text).trim();
  if (text === '') return null;
  const shown = [...new Set(req.shown)].slice(-MAX_SHOWN_SLUGS).filter((s) => s.length <= MAX_SLUG_CHARS);
  return makeEvent(
    'turn.appended',
    {
      session_id: input.sessionId,
      turn: input.turn,
      role: tool ? 'tool' : 'user',
      text,
      source_id: input.sourceId,
      settings: hookTurnSettings(tool !== undefined, input.settings, input.fresh === true),
      channel: input.channel,
      ...(tool ? { tool } : {}),
      ...(shown.length > 0 ? { shown } : {}),
    },
    { key: input.sessionId },
  );
}
