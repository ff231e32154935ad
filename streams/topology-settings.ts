import { readConfigFile } from '../src/config/config-file.js';
import { pushSettings, type PushSettings } from '../src/config/push-settings.js';
import type { TopologySettings } from './decide-turns.js';

/** Push settings re-read per request; a config file that cannot be read gives the defaults (a request never fails on it). */
export function serveSettings(home: string): PushSettings {
  try {
    return pushSettings(readConfigFile(home));
  } catch {
    return pushSettings({});
  }
}

/** The streaming decision's knobs: window from config, gate 0.7, 3 pages; owner traffic; the learning gate from config. */
export function topologySettings(home: string): TopologySettings {
  const s = serveSettings(home);
  return { windowTurns: s.windowTurns, minConfidence: 0.7, maxPages: 3, lexicalArms: s.lexicalArms, gazetteer: s.gazetteer, remote: false, learning: s.learning };
}
