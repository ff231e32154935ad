import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../package-root.js';
import { parseSourceList } from '../flags.js';
import { commandContext } from '../globals.js';

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('serve the brain as MCP tools over stdio; every client is a remote caller of --source with --grant')
    .option('--source <id>', 'bound (write) source of MCP clients (default: BRAINSTREAM_SOURCE or "default")')
    .option('--grant <ids>', 'sources MCP clients may read (comma-separated; default: the bound source)')
    .action(async (_opts, cmd: Command) => {
      const ctx = commandContext(cmd);
      const rawGrant = cmd.optsWithGlobals<{ grant?: string }>().grant;
      const grant = rawGrant === undefined ? undefined : parseSourceList('--grant', rawGrant);
      const version = (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
      // The SDK is loaded only here: no other command pays for it.
      const { serveMcpStdio } = await import('../../mcp/mcp-server.js');
      await serveMcpStdio({ home: ctx.home, source: ctx.caller.source, grant, version });
    });
}
