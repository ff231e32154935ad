import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliAsync, tempDir } from '../support/cli.js';
import { openCliSession, type CliRunOptions, type CliSession } from '../support/cli-session.js';

/** The `brainstream page …` contract, output compared with the exact expected text. */

// One brain for the file, opened once: commands run as the binary forwards them to serve.
const home = tempDir('bs-page-home-');
let session: CliSession;
beforeAll(async () => {
  session = await openCliSession(home.path);
});
afterAll(async () => {
  await session.close();
  home.cleanup();
});
const cli = (args: string[], options: CliRunOptions = {}) => session.run(args, options);

const ALPHA = '---\ntitle: Alpha\naliases: [a1]\n---\nAlpha is a thing.\n\n<!-- timeline -->\n\n- 2024-01-01 started\n';

describe('page put', () => {
  it('prints put <source>:<slug> (created|updated|unchanged), and the same as JSON', async () => {
    expect(await cli(['page', 'put', 'notes/alpha'], { input: ALPHA })).toEqual({ code: 0, stdout: 'put default:notes/alpha (created)\n', stderr: '' });
    expect((await cli(['page', 'put', 'notes/alpha'], { input: ALPHA })).stdout).toBe('put default:notes/alpha (unchanged)\n');
    const changed = ALPHA.replace('a thing', 'the first thing');
    expect((await cli(['page', 'put', 'notes/alpha', '--json'], { input: changed })).stdout).toBe(
      '{"source_id":"default","slug":"notes/alpha","status":"updated"}\n',
    );
    expect((await cli(['page', 'put', 'Notes/Beta', '--source', 'team'], { input: '# Beta\n\nIn team.\n' })).stdout).toBe('put team:notes/beta (created)\n');
    expect((await cli(['page', 'put', 'notes/alpha'], { input: ALPHA })).stdout).toBe('put default:notes/alpha (updated)\n');
  });

  it('refuses stdin over 5 MB, with NUL bytes or not UTF-8 (invalid_input, exit 1), storing nothing', async () => {
    const cases: [Buffer, string][] = [
      [Buffer.alloc(5 * 1024 * 1024 + 1, 'a'), 'the markdown on stdin is over the 5 MB limit (more than 5242880 bytes)'],
      [Buffer.from('# Bin\n\na\u0000b\n'), 'the markdown on stdin is refused: binary stdin (contains NUL bytes)'],
      [Buffer.from([0x23, 0x20, 0x63, 0x61, 0x66, 0xe9, 0x0a]), 'the markdown on stdin is refused: binary stdin (not valid UTF-8)'],
    ];
    for (const [input, message] of cases) {
      const r = await cli(['page', 'put', 'notes/bad'], { input });
      expect(r).toEqual({ code: 1, stdout: '', stderr: `brainstream: invalid_input: ${message}\n` });
    }
    const json = await cli(['page', 'put', 'notes/bad', '--json'], { input: cases[1]![0] });
    expect(JSON.parse(json.stdout)).toEqual({ error: 'invalid_input', message: cases[1]![1] });
    expect((await cli(['page', 'get', 'notes/bad'])).stderr).toBe('brainstream: page_not_found: no page default:notes/bad\n');
  });

  it('refuses a frontmatter escape that makes text the database cannot hold', async () => {
    const r = await cli(['page', 'put', 'notes/bad'], { input: '---\ntitle: "x\\0y"\n---\nbody\n' });
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'brainstream: invalid_input: title contains a NUL character (\\0), which cannot be stored\n' });
  });

  it('refuses a slug over 512 characters as a usage error', async () => {
    const r = await cli(['page', 'put', `notes/${'x'.repeat(600)}`], { input: '# X\n' });
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'brainstream: slug is 606 characters, over the 512-character limit\n' });
  });
});

describe('page get', () => {
  it('prints frontmatter, compiled truth, then \\n\\n<!-- timeline -->\\n\\n<timeline>', async () => {
    expect(await cli(['page', 'get', 'notes/alpha'])).toEqual({
      code: 0,
      stdout: '---\ntitle: Alpha\ntype: note\naliases:\n  - a1\n---\n\nAlpha is a thing.\n\n<!-- timeline -->\n\n- 2024-01-01 started\n',
      stderr: '',
    });
    // No timeline: no marker.
    expect((await cli(['page', 'get', 'notes/beta', '--source', 'team'])).stdout).toBe('---\ntitle: Beta\ntype: note\n---\n\n# Beta\n\nIn team.\n');
  });

  it('prints exactly {source_id, slug, title, type, frontmatter, compiled_truth, timeline} with --json', async () => {
    const r = await cli(['page', 'get', 'notes/alpha', '--json']);
    const page = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(page).sort()).toEqual(['compiled_truth', 'frontmatter', 'slug', 'source_id', 'timeline', 'title', 'type']);
    expect(page).toEqual({
      source_id: 'default',
      slug: 'notes/alpha',
      title: 'Alpha',
      type: 'note',
      frontmatter: { aliases: ['a1'] },
      compiled_truth: 'Alpha is a thing.',
      timeline: '- 2024-01-01 started',
    });
  });

  it('fails with page_not_found, exit 1, for a missing page', async () => {
    expect(await cli(['page', 'get', 'notes/nothing'])).toEqual({ code: 1, stdout: '', stderr: 'brainstream: page_not_found: no page default:notes/nothing\n' });
  });

  it('cuts --session to 256 characters as every channel does; an empty one is a usage error naming --session', async () => {
    expect((await cli(['page', 'get', 'notes/alpha', '--session', 's'.repeat(257)])).code).toBe(0);
    const rows = await session.query<{ session_id: string }>("SELECT data->>'session_id' AS session_id FROM events WHERE type = 'page.retrieved'");
    expect(rows.map((r) => r.session_id)).toContain('s'.repeat(256));
    expect(await cli(['page', 'get', 'notes/alpha', '--session', ''])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'brainstream: --session expects a non-empty session id\n',
    });
  });

  it('shows a remote caller the page without its takes fence and with world facts rows only', async () => {
    const header = '| # | claim | kind | confidence | visibility | notability | valid_from | valid_until | source | context |';
    const separator = '|---|---|---|---|---|---|---|---|---|---|';
    const world = '| 1 | Gamma ships anvils | fact | 0.9 | world | medium | 2024-01-01 |  | owner |  |';
    const hidden = '| 2 | Gamma is for sale | belief | 0.6 | private | high | 2024-02-01 |  | owner |  |';
    const markdown = [
      '# Gamma',
      '',
      'Gamma makes anvils.',
      '',
      '<!--- gbrain:takes:begin -->',
      '- owner: Gamma is overvalued',
      '<!--- gbrain:takes:end -->',
      '',
      'Founded in 1990.',
      '',
      '<!--- gbrain:facts:begin -->',
      header,
      separator,
      world,
      hidden,
      '<!--- gbrain:facts:end -->',
      '',
    ].join('\n');
    expect((await cli(['page', 'put', 'companies/gamma'], { input: markdown })).code).toBe(0);
    const remote = await cli(['--as', 'remote', 'page', 'get', 'companies/gamma']);
    expect(remote).toEqual({
      code: 0,
      stdout: [
        '---',
        'title: Gamma',
        'type: company',
        '---',
        '',
        '# Gamma',
        '',
        'Gamma makes anvils.',
        '',
        'Founded in 1990.',
        '',
        '<!--- gbrain:facts:begin -->',
        header,
        separator,
        world,
        '<!--- gbrain:facts:end -->',
        '',
      ].join('\n'),
      stderr: '',
    });
    // The owner still reads every part.
    const owner = (await cli(['page', 'get', 'companies/gamma'])).stdout;
    expect(owner).toContain('Gamma is overvalued');
    expect(owner).toContain(hidden);
  });
});

describe('page list', () => {
  it('prints <source>:<slug>\\t<title> ordered by source then slug, every source without --source', async () => {
    expect(await cli(['page', 'list'])).toEqual({
      code: 0,
      stdout: 'default:companies/gamma\tGamma\ndefault:notes/alpha\tAlpha\nteam:notes/beta\tBeta\n',
      stderr: '',
    });
  });

  it('prints {"pages":[{source_id, slug, title, type}], "count"} with --json', async () => {
    expect(JSON.parse((await cli(['page', 'list', '--json'])).stdout)).toEqual({
      pages: [
        { source_id: 'default', slug: 'companies/gamma', title: 'Gamma', type: 'company' },
        { source_id: 'default', slug: 'notes/alpha', title: 'Alpha', type: 'note' },
        { source_id: 'team', slug: 'notes/beta', title: 'Beta', type: 'note' },
      ],
      count: 3,
    });
  });

  it('lists one source when BRAINSTREAM_SOURCE names it, exactly as --source does', async () => {
    const byFlag = await cli(['page', 'list', '--source', 'team']);
    const byEnv = await cli(['page', 'list'], { env: { BRAINSTREAM_SOURCE: 'team' } });
    expect(byFlag.stdout).toBe('team:notes/beta\tBeta\n');
    expect(byEnv).toEqual(byFlag);
    expect((await cli(['page', 'list', '--json'], { env: { BRAINSTREAM_SOURCE: 'team' } })).stdout).toBe(
      (await cli(['page', 'list', '--json', '--source', 'team'])).stdout,
    );
    // The flag wins over the environment.
    expect((await cli(['page', 'list', '--source', 'default'], { env: { BRAINSTREAM_SOURCE: 'team' } })).stdout).toBe(
      'default:companies/gamma\tGamma\ndefault:notes/alpha\tAlpha\n',
    );
  });
});

describe('page delete', () => {
  it('prints deleted <source>:<slug>; the page is then missing', async () => {
    expect(await cli(['page', 'delete', 'notes/beta', '--source', 'team'])).toEqual({ code: 0, stdout: 'deleted team:notes/beta\n', stderr: '' });
    expect((await cli(['page', 'get', 'notes/beta', '--source', 'team'])).stderr).toBe('brainstream: page_not_found: no page team:notes/beta\n');
    expect((await cli(['page', 'delete', 'notes/beta', '--source', 'team'])).stderr).toBe('brainstream: page_not_found: no page team:notes/beta\n');
    expect((await cli(['page', 'list'])).stdout).toBe('default:companies/gamma\tGamma\ndefault:notes/alpha\tAlpha\n');
  });
});

// Every round starts two processes and opens the brain, so a few rounds: the first races to
// create the brain, the others to open it. The lock itself is raced round after round by light
// processes in test/integration/brain/brain-lock.test.ts.
const RACE_ROUNDS = 5;

describe('two direct writers at once', () => {
  it('never both open the brain: the loser is refused with brain_locked, never an internal error', async () => {
    const raceHome = tempDir('bs-page-race-');
    try {
      for (let round = 0; round < RACE_ROUNDS; round++) {
        const results = await Promise.all(
          ['a', 'b'].map((who) => runCliAsync(['--home', raceHome.path, 'page', 'put', `notes/${who}`], { input: `# ${who} ${round}\n` })),
        );
        for (const [i, r] of results.entries()) {
          const who = i === 0 ? 'a' : 'b';
          if (r.code === 0) {
            expect(r.stdout).toMatch(new RegExp(`^put default:notes/${who} \\((created|updated)\\)\\n$`));
            expect(r.stderr).toBe('');
          } else {
            expect(r.code).toBe(1);
            expect(r.stdout).toBe('');
            expect(r.stderr).toMatch(/^brainstream: brain_locked: the brain is open in another process \(pid \d+\); stop it, or start `brainstream serve` so commands share it\n$/);
          }
        }
        expect(results.some((r) => r.code === 0)).toBe(true);
      }
      // The brain reads back whole afterwards: the pages of the winners, nothing else.
      const list = runCli(['--home', raceHome.path, 'page', 'list']);
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(/^(?=.)(default:notes\/a\ta \d+\n)?(default:notes\/b\tb \d+\n)?$/);
    } finally {
      raceHome.cleanup();
    }
  });
});
