// Embedding brainstream in a Node program: open a brain, import pages, listen to what gets
// volunteered, and ask for the pages worth reading in a conversation window.
//   BRAINSTREAM_HOME=/tmp/my-brain node library.js path/to/markdown-folder
import { openBrainstream, type VolunteeredEvent, type VolunteerResult } from 'brainstream';

const folder = process.argv[2] ?? 'brain';
const brain = await openBrainstream({ home: process.env.BRAINSTREAM_HOME });
try {
  const imported = await brain.importFolder(folder);
  console.log(`imported ${imported.added} pages (${imported.failed.length} failed)`);

  const heard: VolunteeredEvent[] = [];
  const unsubscribe = brain.onVolunteered((event) => heard.push(event));

  const window = 'user: Morning! I have the Widget Co board call at ten.\nuser: What did Swami Iyer say?';
  const result: VolunteerResult = await brain.volunteer(window, { minConfidence: 0.7, sessionId: 'example' });
  for (const page of result.pages) console.log(`${page.display} → ${page.slug} (${page.confidence}) — ${page.rationale}`);

  unsubscribe();
  console.log(`${heard.length} volunteered events logged`);
} finally {
  await brain.close();
}
