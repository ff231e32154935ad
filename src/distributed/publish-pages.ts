import type { Envelope } from '../domain/events.js';
import type { KafkaEventLog } from '../event-log/kafka/kafka-event-log.js';
import { pageFileOutcome, planFolder, sortFailures, type ImportFailure } from '../ops/folder-page-events.js';

export interface PublishPagesSummary {
  source_id: string;
  published: number;
  failed: ImportFailure[];
}

const CHUNK = 1000;

/**
 * `publish pages`: every markdown file under `root` as a `page.upserted` event of `sourceId`,
 * parsed exactly as `import` parses it, sent to the pages topic keyed by `source/slug`. There is
 * no database to compare with, so every page is sent (the projection counts each as a save).
 */
export async function publishPages(root: string, sourceId: string, log: Pick<KafkaEventLog, 'append'>): Promise<PublishPagesSummary> {
  const plan = planFolder(root);
  const summary: PublishPagesSummary = { source_id: sourceId, published: 0, failed: plan.failed };
  let pending: Envelope[] = [];
  for (const entry of plan.slugs) {
    const outcome = pageFileOutcome(entry, sourceId);
    if (outcome.kind === 'failed') summary.failed.push(...outcome.failures);
    else if (outcome.kind === 'page') pending.push(outcome.event);
    if (pending.length >= CHUNK) {
      await log.append(pending);
      summary.published += pending.length;
      pending = [];
    }
  }
  if (pending.length > 0) await log.append(pending);
  summary.published += pending.length;
  sortFailures(summary.failed);
  return summary;
}
