import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildProgram } from '../src/cli/program.js';
import { ENVIRONMENT_VARIABLES } from '../src/config/environment-variables.js';
import { packageRoot } from '../src/package-root.js';
import { renderCliReference } from './render-cli-reference.js';

/**
 * Writes docs/cli.md from the command definitions; `--check` only compares and exits 1 when
 * the file is out of date. The program is built, never run: no command starts, no brain opens.
 */
const CLI_REFERENCE_PATH = join('docs', 'cli.md');

const path = join(packageRoot(), CLI_REFERENCE_PATH);
const rendered = renderCliReference(buildProgram(), ENVIRONMENT_VARIABLES);

if (process.argv.slice(2).includes('--check')) {
  let current: string | null = null;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    // missing: out of date like any other difference
  }
  if (current !== rendered) {
    process.stderr.write(
      `${CLI_REFERENCE_PATH} is out of date with the command definitions: run \`npm run build && node dist/scripts/cli-reference.js\` and commit ${CLI_REFERENCE_PATH}\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`${CLI_REFERENCE_PATH} is up to date\n`);
} else {
  writeFileSync(path, rendered);
  process.stdout.write(`wrote ${CLI_REFERENCE_PATH}\n`);
}
