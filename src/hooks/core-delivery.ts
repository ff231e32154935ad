/** The core block a session start prints, and where it came from. */
export interface CoreDelivery {
  /** The session block ("" when no page renders). */
  text: string;
  /** Core revision (a hash) of the brain-wide block. */
  revision: string;
  /** Remote-edit notice lines (at most 5 plus a "more" line). */
  notices: string[];
  via: 'serve' | 'cache' | 'direct';
}
