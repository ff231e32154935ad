import { describe, expect, it } from 'vitest';
import { coreDoctorCheck, type CoreDoctorInput } from '../../../src/core-memory/core-doctor.js';
import { corePage, TODAY } from './fixtures.js';

const input = (over: Partial<CoreDoctorInput>): CoreDoctorInput => ({ config: { 'memory.core.enabled': true }, pages: [], compiledFiles: [], writers: [], today: TODAY, ...over });
const manyCorePages = (n: number, source = 'default') => Array.from({ length: n }, (_, i) => corePage(`notes/n${String(i).padStart(2, '0')}`, 'x', { always_load: true }, { source_id: source }));

describe('doctor: the over_budget finding for more than 50 core pages names a <source>:<slug>', () => {
  it('names the page last in core order, with the exact command that unmarks it', () => {
    const pages = [...manyCorePages(50), corePage('people/zoe', 'z', { always_load: true, core_priority: 500 }, { source_id: 'team' })];
    const check = coreDoctorCheck(input({ pages }));
    expect(check.status).toBe('warn');
    expect(check.details.findings).toEqual([
      {
        kind: 'over_budget',
        subject: 'team:people/zoe',
        source_id: 'team',
        slug: 'people/zoe',
        message: 'core has 51 pages, 1 over the limit of 50; team:people/zoe is last in core order',
        fix: 'brainstream core remove --source team people/zoe, and the same for other pages that need not be core',
      },
    ]);
    expect(check.message).toBe(
      '1 finding(s): over_budget team:people/zoe — fix: brainstream core remove --source team people/zoe, and the same for other pages that need not be core',
    );
  });

  it('withheld pages count, and a deleted one does not; only pages the caller can see are named', () => {
    const pages = [
      ...manyCorePages(50),
      corePage('zz/private', 'p', { always_load: true, visibility: 'private' }),
      corePage('zzz/gone', 'g', { always_load: true }, { deleted: true }),
      corePage('zzzz/other', 'o', { always_load: true }, { source_id: 'other' }),
    ];
    const owner = coreDoctorCheck(input({ pages })).details.findings.filter((f) => f.kind === 'over_budget');
    expect(owner.map((f) => f.subject)).toEqual(['other:zzzz/other']);
    const scoped = coreDoctorCheck(input({ pages, visible: ['default'] })).details.findings.filter((f) => f.kind === 'over_budget');
    expect(scoped.map((f) => [f.subject, f.message])).toEqual([['default:zz/private', 'core has 52 pages, 2 over the limit of 50; default:zz/private is last in core order']]);
  });
});
