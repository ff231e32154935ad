import { describe, expect, it } from 'vitest';
import { replicationFor } from '../../../src/event-log/kafka/kafka-topics.js';

describe('replicationFor', () => {
  it('one copy on one broker; three copies, two in sync, from three brokers on', () => {
    expect(replicationFor(1)).toEqual({ replicationFactor: 1, minInsyncReplicas: 1 });
    expect(replicationFor(2)).toEqual({ replicationFactor: 2, minInsyncReplicas: 1 });
    expect(replicationFor(3)).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 });
    expect(replicationFor(7)).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 });
  });

  it('never asks for fewer than one copy (a cluster that reports no broker yet)', () => {
    expect(replicationFor(0)).toEqual({ replicationFactor: 1, minInsyncReplicas: 1 });
  });
});
