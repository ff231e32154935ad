/** One conversation turn; a window lists turns oldest first (spec §0). */
export type TurnRole = 'user' | 'assistant';

export interface Turn {
  role: TurnRole;
  text: string;
}
