import { resolve } from 'node:path';
import type { Brain } from '../brain/brain.js';
import type { TurnSink } from '../../streams/turn-engine.js';

/** A brain this process owns for others (serve, or a watch serving its socket). */
export interface HostedBrain {
  role: 'serve' | 'watch';
  home: string;
  brain: Brain;
  /** The owner's volunteer processor: a hosted `watch` submits its turns here. */
  turns: TurnSink;
}

const hosted = new Map<string, HostedBrain>();

/** Registers a hosted brain so commands run in this process use it instead of opening it again. */
export function hostBrain(entry: HostedBrain): () => void {
  const key = resolve(entry.home);
  hosted.set(key, entry);
  return () => {
    if (hosted.get(key) === entry) hosted.delete(key);
  };
}

export const hostedBrain = (home: string): HostedBrain | undefined => hosted.get(resolve(home));
