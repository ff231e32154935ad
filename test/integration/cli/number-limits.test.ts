// Out-of-range numbers through the CLI (and an MCP client): refused with a usage error naming the
// flag (exit 2) or invalid_params, never silently replaced; day counts never break a purge;
// `stats --until` in the future reports everything up to now. One in-process serve, no spawns.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DAYS } from '../../../src/context/number-ranges.js';
import { buildMcpServer } from '../../../src/mcp/mcp-server.js';
import { tempDir } from '../../support/cli.js';
import { openCliSession, type CliSession } from '../../support/cli-session.js';

const home = tempDir('bs-number-limits-home-');
const folder = tempDir('bs-number-limits-pages-');
let cli: CliSession;
const person = (title: string) => `---\ntitle: ${title}\ntype: person\n---\n${title} is someone we know.\n`;
const six = 'user: Alice Example, Bob Sample, Carol Demo, Dan Trial, Erin Probe and Fay Check are coming.\n';

beforeAll(async () => {
  cli = await openCliSession(home.path);
  await cli.importPages(folder.path, Object.fromEntries(
    ['Alice Example', 'Bob Sample', 'Carol Demo', 'Dan Trial', 'Erin Probe', 'Fay Check'].map((t) => [`people/${t.toLowerCase().replace(' ', '-')}`, person(t)]),
  ));
});

afterAll(async () => {
  await cli.close();
  home.cleanup();
  folder.cleanup();
});

/** The slugs a `watch --json` run printed. */
const fired = (stdout: string): string[] => stdout.split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as { slug: string }).slug);

describe('out-of-range numbers are usage errors', () => {
  it.each([
    [['watch', '--min-confidence', '2'], '--min-confidence expects a number from 0 to 1, got "2"'],
    [['watch', '--window-turns', '100'], '--window-turns expects a whole number from 1 to 64, got "100"'],
    [['watch', '--max-pages', '0'], '--max-pages expects a whole number from 1 to 5, got "0"'],
    [['watch', '--max-pages', '99'], '--max-pages expects a whole number from 1 to 5, got "99"'],
    [['volunteer-context', '--min-confidence', '2'], '--min-confidence expects a number from 0 to 1, got "2"'],
    [['volunteer-context', '--stats', '--days', '99999999'], `--days expects a whole number from 1 to ${MAX_DAYS}, got "99999999"`],
    [['volunteer-context', '--stats', '--days', '0'], `--days expects a whole number from 1 to ${MAX_DAYS}, got "0"`],
    [['purge', '--ttl-days', '100000000'], `--ttl-days expects a whole number from 1 to ${MAX_DAYS}, got "100000000"`],
    [['purge', '--ttl-days', '1.5'], `--ttl-days expects a whole number from 1 to ${MAX_DAYS}, got "1.5"`],
  ])('%j: exit 2, one line, nothing done', async (args, message) => {
    expect(await cli.run(args, { input: six })).toEqual({ code: 2, stdout: '', stderr: `brainstream: ${message}\n` });
  });

  it('`call` and an MCP client get invalid_params', async () => {
    const call = await cli.run(['call', 'volunteer_context', '--params', '{"window":"user: hi","min_confidence":2}']);
    expect(call).toMatchObject({ code: 1, stderr: 'brainstream: invalid_params: volunteer_context: min_confidence: must be a number from 0 to 1\n' });

    const server = buildMcpServer({ home: home.path, source: 'default', grant: undefined, version: 'test' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'number-limits', version: '1' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    try {
      const r = await client.callTool({ name: 'volunteer_context', arguments: { window: 'user: Alice Example', min_confidence: 2 } });
      expect(r.isError).toBe(true);
      expect(r.content).toEqual([{ type: 'text', text: 'brainstream: invalid_params: volunteer_context: min_confidence: must be a number from 0 to 1' }]);
      expect(r.structuredContent).toMatchObject({ error: 'invalid_params', field: 'min_confidence' });
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('in-range values apply as given', async () => {
    expect(fired((await cli.run(['watch', '--json', '--session-id', 'max-1', '--max-pages', '1'], { input: six })).stdout)).toHaveLength(1);
    expect(fired((await cli.run(['watch', '--json', '--session-id', 'max-5', '--max-pages', '5'], { input: six })).stdout)).toHaveLength(5);
    // Title hits are 0.85: a gate of 0.9 lets none through.
    expect(fired((await cli.run(['watch', '--json', '--session-id', 'gate-09', '--min-confidence', '0.9'], { input: six })).stdout)).toEqual([]);
  });
});

describe('day counts', () => {
  it('config set refuses a retention beyond the range; one stored before still purges', async () => {
    expect(await cli.run(['config', 'set', 'memory.volunteer.retention_days', '1e9'])).toMatchObject({
      code: 1,
      stderr: `brainstream: invalid_config_value: memory.volunteer.retention_days must be a whole number from 1 to ${MAX_DAYS}, got "1e9"\n`,
    });
    expect((await cli.run(['config', 'set', '--force', 'memory.volunteer.retention_days', '1000000000'])).code).toBe(0);
    expect(await cli.run(['purge', '--json'])).toEqual({ code: 0, stdout: '{"purged":0}\n', stderr: '' });
    expect(await cli.run(['purge', '--ttl-days', String(MAX_DAYS), '--json'])).toEqual({ code: 0, stdout: '{"purged":0}\n', stderr: '' });
    expect((await cli.run(['config', 'set', 'memory.volunteer.retention_days', '90'])).code).toBe(0);
  });

  it('the longest stats window answers', async () => {
    const r = await cli.run(['volunteer-context', '--stats', '--days', String(MAX_DAYS), '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ days: MAX_DAYS });
  });
});

describe('stats --until', () => {
  it('a future end reports everything up to now', async () => {
    expect((await cli.run(['volunteer-context', '--json'], { input: 'user: ask Alice Example\n' })).code).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    const all = JSON.parse((await cli.run(['stats', '--json'])).stdout);
    const r = await cli.run(['stats', '--until', '2999-12-31', '--json']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const until = JSON.parse(r.stdout);
    expect(until.total.volunteered).toBeGreaterThan(0);
    expect(until).toEqual({ ...all, until: today });
  });
});
