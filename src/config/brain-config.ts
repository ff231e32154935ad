import { readConfigFile, type StoredConfig } from './config-file.js';

/** The stored config of a brain; an in-memory brain (no home) has none. */
export const brainConfig = (brain: { home: string | null }): StoredConfig => (brain.home === null ? {} : readConfigFile(brain.home));
