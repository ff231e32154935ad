/** One conversation turn; a window lists turns oldest first (spec §0). */
/** `tool`: what a tool returned to the agent (read like an assistant turn: never a user mention). */
export type TurnRole = 'user' | 'assistant' | 'tool';

export interface Turn {
  role: TurnRole;
  text: string;
}
