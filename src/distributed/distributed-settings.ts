import { topologySettings } from '../../streams/topology-settings.js';
import type { TopologySettings } from '../../streams/decide-turns.js';

/**
 * The knobs of the Kafka processors: the `watch` rules with the window,
 * lexical arms and gazetteer of this process's configuration, and remote traffic — private pages
 * are never volunteered. Every member of a group must run with the same configuration, or a
 * session's decisions would depend on which member owns its partition.
 */
export function distributedTopologySettings(home: string): TopologySettings {
  return { ...topologySettings(home), remote: true };
}
