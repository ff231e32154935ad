import { describe, expect, it } from 'vitest';
import { coreRevision, renderBrainWideBlock } from '../../../src/core-memory/core-block.js';
import { coreDoctorCheck, type CoreDoctorInput } from '../../../src/core-memory/core-doctor.js';
import { corePage, TODAY } from './fixtures.js';

const on = { 'memory.core.enabled': true };
const input = (over: Partial<CoreDoctorInput>): CoreDoctorInput => ({ config: on, pages: [], compiledFiles: [], writers: [], today: TODAY, ...over });

describe('doctor core_memory', () => {
  it('ok with no findings', () => {
    const check = coreDoctorCheck(input({ pages: [corePage('a', 'text', { always_load: true }, { title: 'A' })] }));
    expect(check).toEqual({
      name: 'core_memory',
      status: 'ok',
      message: 'core memory is on: 29/4000 chars, 1/50 pages',
      details: { enabled: true, used_chars: 29, max_chars: 4000, over_by: 0, page_count: 1, findings: [] },
    });
  });

  it('core off: ok, message begins "core memory is off", findings still listed', () => {
    expect(coreDoctorCheck(input({ config: {} })).message).toBe('core memory is off');
    const check = coreDoctorCheck(input({ config: { 'memory.core.max_chars': 9000 } }));
    expect(check.status).toBe('ok');
    expect(check.message).toBe(
      'core memory is off; 1 finding(s): out_of_range_setting memory.core.max_chars — fix: brainstream config set memory.core.max_chars 6000',
    );
    expect(check.details.findings).toHaveLength(1);
  });

  it('over_budget (size) names the largest page and a budget', () => {
    const pages = [corePage('big', 'x'.repeat(600)), corePage('small', 'y')];
    const check = coreDoctorCheck(input({ config: { ...on, 'memory.core.max_chars': 500 }, pages }));
    expect(check.status).toBe('warn');
    const [finding] = check.details.findings;
    expect(finding).toMatchObject({
      kind: 'over_budget',
      key: 'memory.core.max_chars',
      fix: `shorten core pages or move detail to a linked page; brainstream core remove --source default big; brainstream config set memory.core.max_chars ${check.details.used_chars}`,
    });
    expect(check.details.over_by).toBe(check.details.used_chars - 500);
    expect(check.message.startsWith('1 finding(s): over_budget memory.core.max_chars — fix: shorten core pages')).toBe(true);
  });

  it('over_budget (count) beyond 50 core pages, private ones included', () => {
    const pages = Array.from({ length: 51 }, (_, i) => corePage(`p${i}`, '', { always_load: true, visibility: 'private' }));
    const kinds = coreDoctorCheck(input({ pages })).details.findings.map((f) => `${f.kind}:${f.subject}`);
    expect(kinds[0]).toBe('over_budget:default:p9'); // names the page last in core order as <source>:<slug>
  });

  it('reports non-numeric core_priority, deleted and withheld core pages with their fixes', () => {
    const check = coreDoctorCheck(
      input({
        pages: [
          corePage('prio', 'x', { always_load: true, core_priority: 'high' }),
          corePage('gone', 'x', { always_load: true }, { deleted: true, source_id: 'work' }),
          corePage('secret', 'x', { always_load: true, visibility: 'private' }),
          corePage('unsafe', 'x', { always_load: true, quarantine: true }),
          corePage('plain', 'x', { core_priority: 'n/a' }),
        ],
      }),
    );
    expect(check.details.findings).toEqual([
      {
        kind: 'out_of_range_setting',
        subject: 'default:prio',
        source_id: 'default',
        slug: 'prio',
        message: 'core_priority of default:prio is "high", not a number; it sorts as 100',
        fix: 'fix the page: set core_priority to a number, or run brainstream core add --source default prio --priority 100',
      },
      {
        kind: 'deleted_core_page',
        subject: 'work:gone',
        source_id: 'work',
        slug: 'gone',
        message: 'work:gone is deleted but still has always_load: true',
        fix: 'brainstream core remove --source work gone (works on deleted rows) or re-create it',
      },
      {
        kind: 'withheld_core_page',
        subject: 'default:secret',
        source_id: 'default',
        slug: 'secret',
        message: 'default:secret is core but private, so it never renders',
        fix: 'change its visibility, or brainstream core remove --source default secret',
      },
      {
        kind: 'withheld_core_page',
        subject: 'default:unsafe',
        source_id: 'default',
        slug: 'unsafe',
        message: 'default:unsafe is core but quarantined, so it never renders',
        fix: 'review it and clear quarantine, or brainstream core remove --source default unsafe',
      },
    ]);
    expect(check.message.split('; ')[0]).toBe(
      '4 finding(s): out_of_range_setting default:prio — fix: fix the page: set core_priority to a number, or run brainstream core add --source default prio --priority 100',
    );
  });

  it('reports compiled files with an older core revision', () => {
    const pages = [corePage('a', 'text')];
    const current = coreRevision(renderBrainWideBlock(pages, TODAY).text);
    const check = coreDoctorCheck(
      input({
        pages,
        compiledFiles: [
          { path: '/w/AGENTS.md', target: 'codex', core_revision: 'deadbeefdeadbeef' },
          { path: '/w/CLAUDE.md', target: 'claude-code', core_revision: current },
          { path: '/w/.hermes.md', target: 'hermes', core_revision: null },
        ],
      }),
    );
    expect(check.details.findings).toEqual([
      {
        kind: 'stale_compiled_core',
        subject: '/w/AGENTS.md',
        path: '/w/AGENTS.md',
        message: `/w/AGENTS.md carries core=deadbeefdeadbeef, current is ${current}`,
        fix: 'brainstream compile-context --target codex --include-core (or --remove-core)',
      },
    ]);
  });

  it('reports running writers without the core_guard capability', () => {
    const check = coreDoctorCheck(
      input({ writers: [{ kind: 'serve', pid: 42, capabilities: ['volunteer'] }, { kind: 'watch', capabilities: ['core_guard'] }] }),
    );
    expect(check.details.findings).toEqual([
      { kind: 'pre_guard_writer', subject: 'serve (pid 42)', message: 'serve (pid 42) does not enforce the core budget', fix: 'restart it on the current build' },
    ]);
    expect(check.status).toBe('warn');
  });
});
