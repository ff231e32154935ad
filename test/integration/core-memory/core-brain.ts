import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Brain } from '../../../src/brain/brain.js';
import type { Db } from '../../../src/db/db.js';
import { migrate } from '../../../src/db/migrate.js';
import { ownerCaller, remoteCaller } from '../../../src/caller.js';
import { putPage } from '../../../src/ops/page-ops.js';

/** A brain over `db` with a real home folder, so the core rules read `<home>/config.json`. */
export interface CoreBrain {
  brain: Brain;
  home: string;
  setConfig(config: Record<string, unknown>): void;
  cleanup(): void;
}

export async function coreBrain(db: Db, config: Record<string, unknown> = {}): Promise<CoreBrain> {
  const home = mkdtempSync(join(tmpdir(), 'bs-core-'));
  const setConfig = (c: Record<string, unknown>): void => writeFileSync(join(home, 'config.json'), JSON.stringify(c));
  setConfig(config);
  await migrate(db);
  const brain = new Brain(db, home);
  await brain.catchUp();
  return { brain, home, setConfig, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

export const owner = ownerCaller('default');
export const remote = remoteCaller('default');

/** Page markdown with frontmatter (YAML text as given) and a body. */
export const md = (frontmatter: string, body: string): string => `---\n${frontmatter}\n---\n${body}\n`;

/** A core page of `default` owned by `owner`. */
export const putCore = (brain: Brain, slug: string, body: string, extra = ''): ReturnType<typeof putPage> =>
  putPage(brain, owner, slug, md(`title: ${slug}\nalways_load: true${extra ? `\n${extra}` : ''}`, body));

export const TODAY = new Date('2026-04-07T12:00:00Z');
