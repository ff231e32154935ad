import { coreRevision } from './core-block.js';
import { measureCore } from './core-budget.js';
import { MAX_CHARS_CEILING } from './core-budget-error.js';
import { hasInvalidCorePriority, isCorePage, isMarkedCore, MAX_CORE_PAGES, withheldReason, type CorePageRow } from './core-page.js';
import { compareBrainWide } from './core-order.js';
import { memorySettings, outOfRangeSettings } from './memory-settings.js';
import { coreRemoveCommand } from './owner-rules.js';

export type CoreFindingKind =
  | 'over_budget'
  | 'out_of_range_setting'
  | 'deleted_core_page'
  | 'withheld_core_page'
  | 'stale_compiled_core'
  | 'pre_guard_writer';

export interface CoreFinding {
  kind: CoreFindingKind;
  /** What the finding is about: a key, `<source>:<slug>`, a file or a process. */
  subject: string;
  message: string;
  fix: string;
  source_id?: string;
  slug?: string;
  key?: string;
  path?: string;
}

export interface CompiledFileRecord {
  path: string;
  /** `compile-context` target (`codex`, `codex-global`, `hermes`, `claude-code`). */
  target: string | null;
  /** The `core=` revision in the file's managed block; null when it carries no core. */
  core_revision: string | null;
}

export interface RunningWriter {
  kind: 'serve' | 'watch';
  pid?: number;
  capabilities: readonly string[];
}

export interface CoreDoctorInput {
  config: Record<string, unknown>;
  /** Every page row marked core, live or soft-deleted (other rows are ignored). */
  pages: readonly CorePageRow[];
  compiledFiles: readonly CompiledFileRecord[];
  writers: readonly RunningWriter[];
  today: string;
  /** Sources whose pages the findings may name (the budget stays brain-wide); null/absent = all. */
  visible?: readonly string[] | null;
}

export interface CoreDoctorCheck {
  name: 'core_memory';
  status: 'ok' | 'warn';
  message: string;
  details: {
    enabled: boolean;
    used_chars: number;
    max_chars: number;
    over_by: number;
    page_count: number;
    findings: CoreFinding[];
  };
}

const ref = (p: { source_id: string; slug: string }): string => `${p.source_id}:${p.slug}`;
const pageFields = (p: CorePageRow) => ({ subject: ref(p), source_id: p.source_id, slug: p.slug });

type PageRef = { source_id: string; slug: string };

function budgetFindings(used: number, count: number, maxChars: number, largest: PageRef | undefined, lastInOrder: PageRef | undefined): CoreFinding[] {
  const out: CoreFinding[] = [];
  if (used > maxChars) {
    const remove = largest ? coreRemoveCommand(largest.source_id, largest.slug) : 'brainstream core remove --source <id> <slug>';
    const raise = Math.min(MAX_CHARS_CEILING, used);
    out.push({
      kind: 'over_budget',
      subject: 'memory.core.max_chars',
      key: 'memory.core.max_chars',
      message: `core is ${used} chars, ${used - maxChars} over memory.core.max_chars=${maxChars}`,
      fix: `shorten core pages or move detail to a linked page; ${remove}${raise > maxChars ? `; brainstream config set memory.core.max_chars ${raise}` : ''}`,
    });
  }
  if (count > MAX_CORE_PAGES) {
    // The 50-page cap is not a setting, so the finding names a page (a finding's subject is a key
    // or `<source>:<slug>`): the one last in core order (highest core_priority), the natural first to unmark.
    const over = `core has ${count} pages, ${count - MAX_CORE_PAGES} over the limit of ${MAX_CORE_PAGES}`;
    out.push(
      lastInOrder
        ? {
            kind: 'over_budget',
            subject: ref(lastInOrder),
            source_id: lastInOrder.source_id,
            slug: lastInOrder.slug,
            message: `${over}; ${ref(lastInOrder)} is last in core order`,
            fix: `${coreRemoveCommand(lastInOrder.source_id, lastInOrder.slug)}, and the same for other pages that need not be core`,
          }
        : { kind: 'over_budget', subject: 'core pages', message: over, fix: 'brainstream core remove --source <id> <slug> for pages that need not be core' },
    );
  }
  return out;
}

function pageFindings(pages: readonly CorePageRow[]): CoreFinding[] {
  const out: CoreFinding[] = [];
  for (const p of pages) {
    if (!isMarkedCore(p.frontmatter)) continue;
    const remove = coreRemoveCommand(p.source_id, p.slug);
    if (!isCorePage(p)) {
      out.push({ kind: 'deleted_core_page', ...pageFields(p), message: `${ref(p)} is deleted but still has always_load: true`, fix: `${remove} (works on deleted rows) or re-create it` });
      continue;
    }
    if (hasInvalidCorePriority(p.frontmatter)) {
      out.push({
        kind: 'out_of_range_setting',
        ...pageFields(p),
        message: `core_priority of ${ref(p)} is ${JSON.stringify(p.frontmatter.core_priority)}, not a number; it sorts as 100`,
        fix: `fix the page: set core_priority to a number, or run brainstream core add --source ${p.source_id} ${p.slug} --priority 100`,
      });
    }
    const withheld = withheldReason(p);
    if (withheld !== null) {
      out.push({
        kind: 'withheld_core_page',
        ...pageFields(p),
        message: `${ref(p)} is core but ${withheld}, so it never renders`,
        fix: withheld === 'private' ? `change its visibility, or ${remove}` : `review it and clear quarantine, or ${remove}`,
      });
    }
  }
  return out;
}

/** Doctor check `core_memory`: informational, so `warn` at worst, `ok` while core is off. */
export function coreDoctorCheck(input: CoreDoctorInput): CoreDoctorCheck {
  const settings = memorySettings(input.config);
  const measure = measureCore(input.pages, input.today);
  const revision = coreRevision(measure.block.text);
  const canSee = (source: string): boolean => !input.visible || input.visible.includes(source);
  const largest = [...measure.block.sections].filter((s) => canSee(s.source_id)).sort((a, b) => b.chars - a.chars)[0];
  // Counted pages include withheld ones (the cap limits what the owner manages, rendered or
  // not), so the page named for the count may be one of them.
  const lastInOrder = input.pages.filter((p) => isCorePage(p) && canSee(p.source_id)).sort(compareBrainWide).at(-1);

  const findings: CoreFinding[] = [
    ...budgetFindings(measure.chars, measure.count, settings.maxChars, largest, lastInOrder),
    ...outOfRangeSettings(input.config).map((s): CoreFinding => ({ kind: 'out_of_range_setting', subject: s.key, key: s.key, message: s.message, fix: s.fix })),
    ...pageFindings(input.pages.filter((p) => canSee(p.source_id))),
    ...input.compiledFiles
      .filter((f) => f.core_revision !== null && f.core_revision !== revision)
      .map((f): CoreFinding => ({
        kind: 'stale_compiled_core',
        subject: f.path,
        path: f.path,
        message: `${f.path} carries core=${f.core_revision}, current is ${revision}`,
        fix: `brainstream compile-context --target ${f.target ?? '<target>'} --include-core (or --remove-core)`,
      })),
    ...input.writers
      .filter((w) => !w.capabilities.includes('core_guard'))
      .map((w): CoreFinding => {
        const subject = w.pid === undefined ? w.kind : `${w.kind} (pid ${w.pid})`;
        return { kind: 'pre_guard_writer', subject, message: `${subject} does not enforce the core budget`, fix: 'restart it on the current build' };
      }),
  ];

  const listed = findings.length === 0 ? '' : `${findings.length} finding(s): ${findings.map((f) => `${f.kind} ${f.subject} — fix: ${f.fix}`).join('; ')}`;
  const summary = `core memory is on: ${measure.chars}/${settings.maxChars} chars, ${measure.count}/${MAX_CORE_PAGES} pages`;
  const message = !settings.coreEnabled ? (listed === '' ? 'core memory is off' : `core memory is off; ${listed}`) : listed === '' ? summary : listed;
  return {
    name: 'core_memory',
    status: settings.coreEnabled && findings.length > 0 ? 'warn' : 'ok',
    message,
    details: {
      enabled: settings.coreEnabled,
      used_chars: measure.chars,
      max_chars: settings.maxChars,
      over_by: Math.max(0, measure.chars - settings.maxChars),
      page_count: measure.count,
      findings,
    },
  };
}
