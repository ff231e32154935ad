import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BrainstreamError } from '../errors.js';
import { codexDir, userHomeDir } from '../harness-dirs.js';
import type { BootstrapHarness } from './hook-install.js';

/** The name the MCP server is registered under in the harness. */
export const MCP_SERVER_NAME = 'brainstream';

export interface McpCommand {
  command: string;
  args: string[];
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Where the harness reads its MCP servers: Claude Code's user-scope servers are in
 * `~/.claude.json` (`CLAUDE_CONFIG_DIR/.claude.json` when set), Codex's in `$CODEX_HOME/config.toml`.
 */
export function mcpConfigPath(harness: BootstrapHarness, env: Env = process.env): string {
  if (harness === 'codex') return join(codexDir(env), 'config.toml');
  return env.CLAUDE_CONFIG_DIR ? join(env.CLAUDE_CONFIG_DIR, '.claude.json') : join(userHomeDir(env), '.claude.json');
}

function writeKeepingMode(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const mode = existsSync(path) ? statSync(path).mode & 0o777 : 0o600;
  const tmp = `${path}.brainstream-${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode });
  // The user's own file keeps its mode: the process umask (owner-only) would narrow it.
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

const readText = (path: string): string => (existsSync(path) ? readFileSync(path, 'utf8') : '');

/** A server entry bootstrap wrote: it starts brainstream's `mcp`. */
const isOurs = (entry: unknown): boolean => {
  const e = entry as { command?: unknown; args?: unknown } | null;
  return typeof e?.command === 'string' && Array.isArray(e.args) && e.args.includes('mcp') && [e.command, ...e.args].some((a) => typeof a === 'string' && /brainstream/.test(a));
};

/** Claude Code: `mcpServers.brainstream` in its JSON state file, every other key kept. */
function claudeJson(text: string, path: string, server: McpCommand | null): string | null {
  let config: Record<string, unknown> = {};
  if (text.trim() !== '') {
    try {
      const value = JSON.parse(text) as unknown;
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
      config = value as Record<string, unknown>;
    } catch {
      throw new BrainstreamError('invalid_settings_file', `${path} is not a JSON object; fix it first (nothing was changed)`);
    }
  }
  const servers = { ...((config.mcpServers as Record<string, unknown> | undefined) ?? {}) };
  const current = servers[MCP_SERVER_NAME];
  if (current !== undefined && !isOurs(current)) {
    throw new BrainstreamError('mcp_name_taken', `${path} already has an MCP server named "${MCP_SERVER_NAME}" that bootstrap did not write; rename or remove it first`);
  }
  if (server === null) {
    if (current === undefined) return null;
    delete servers[MCP_SERVER_NAME];
  } else {
    const entry = { type: 'stdio', command: server.command, args: server.args, env: {} };
    if (JSON.stringify(current) === JSON.stringify(entry)) return null;
    servers[MCP_SERVER_NAME] = entry;
  }
  const next = { ...config, mcpServers: servers };
  if (Object.keys(servers).length === 0) delete (next as { mcpServers?: unknown }).mcpServers;
  return `${JSON.stringify(next, null, 2)}\n`;
}

const TABLE = `[mcp_servers.${MCP_SERVER_NAME}]`;
const OUR_TABLE = new RegExp(`^\\s*\\[\\s*mcp_servers\\s*\\.\\s*"?${MCP_SERVER_NAME}"?\\s*(\\.[^\\]]*)?\\]\\s*(#.*)?$`);
const ANY_TABLE = /^\s*\[/;
/** A TOML basic string (JSON escapes are valid TOML escapes). */
const tomlString = (s: string): string => JSON.stringify(s);

/** Codex: the `[mcp_servers.brainstream]` table (and its sub-tables) in config.toml, every other line kept. */
function codexToml(text: string, server: McpCommand | null): string | null {
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
  const kept: string[] = [];
  let inOurs = false;
  let found = false;
  for (const line of lines) {
    if (OUR_TABLE.test(line)) {
      inOurs = true;
      found = true;
      continue;
    }
    if (inOurs && ANY_TABLE.test(line)) inOurs = false;
    if (!inOurs) kept.push(line);
  }
  while (kept.length > 0 && kept[kept.length - 1]!.trim() === '') kept.pop();
  if (server === null && !found) return null;
  const block = server === null ? [] : [TABLE, `command = ${tomlString(server.command)}`, `args = [${server.args.map(tomlString).join(', ')}]`];
  const next = [...kept, ...(kept.length > 0 && block.length > 0 ? [''] : []), ...block].join('\n');
  const out = next === '' ? '' : `${next}\n`;
  return out === text ? null : out;
}

/**
 * Registers (or with `server` null removes) brainstream's MCP server in the harness's config.
 * Returns whether the file changed; a server of that name that bootstrap did not write is refused.
 */
export function registerMcpServer(harness: BootstrapHarness, path: string, server: McpCommand | null): boolean {
  const text = readText(path);
  const next = harness === 'codex' ? codexToml(text, server) : claudeJson(text, path, server);
  if (next === null) return false;
  writeKeepingMode(path, next);
  return true;
}
