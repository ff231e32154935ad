import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { from } from 'rxjs';
import type { Brain } from '../brain/brain.js';
import { parseWatchLine } from '../context/parse-watch-line.js';
import type { TurnDecision } from '../../streams/decide-turns.js';
import { packageRoot } from '../package-root.js';
import { importFolder, type ImportSummary } from './import-folder.js';
import { runWatch } from './watch-stream.js';

export const demoPaths = () => ({
  brain: join(packageRoot(), 'docs', 'examples', 'brain'),
  transcript: join(packageRoot(), 'docs', 'examples', 'transcript.txt'),
});

export interface DemoTurn {
  turn: number;
  role: string;
  text: string;
  decision: TurnDecision | null;
}

/** Imports the example brain, streams the example transcript through `watch`, and reports per turn. */
export async function runDemo(brain: Brain): Promise<{ imported: ImportSummary; turns: DemoTurn[] }> {
  const paths = demoPaths();
  const imported = await importFolder(brain, paths.brain, 'default');
  const lines = readFileSync(paths.transcript, 'utf8').split('\n');
  const turns: DemoTurn[] = lines
    .map(parseWatchLine)
    .filter((t) => t !== null)
    .map((t, i) => ({ turn: i + 1, role: t.role, text: t.text, decision: null }));
  await runWatch(brain, from(lines), {
    sessionId: 'demo',
    sourceId: 'default',
    settings: {},
    topology: () => ({ windowTurns: 4, minConfidence: 0.7, maxPages: 3, lexicalArms: true, gazetteer: true, remote: false }),
    onDecision: (d) => {
      const t = turns[d.turn - 1];
      if (t) t.decision = d;
    },
  });
  return { imported, turns };
}
