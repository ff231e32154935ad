/** One conversation turn; a window lists turns oldest first. */
/** `tool`: what a tool returned to the agent (read like an assistant turn: never a user mention). */
export type TurnRole = 'user' | 'assistant' | 'tool';

export interface Turn {
  role: TurnRole;
  text: string;
}

/**
 * What the decision reads: a conversation turn, or a `tool` turn — what a tool returned to the
 * agent (a file, an email, a web page). A tool turn is decided like any other, but it is never
 * the user naming something, nor the assistant.
 */
export interface DecisionTurn {
  role: TurnRole | 'tool';
  text: string;
}
