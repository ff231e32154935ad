import type { FactRow } from '../pages/facts-table.js';
import type { RememberItem } from './remember-params.js';

/**
 * The facts-fence row a remembered item becomes on its entity page: claim, kind,
 * confidence `1.0`, visibility, notability `medium`, valid_from today, valid_until,
 * provenance as source, empty context. The row number is assigned when it is appended.
 */
export function rememberRowFields(item: RememberItem, today: string): Omit<FactRow, 'row'> {
  return {
    claim: item.fact,
    active: true,
    kind: item.kind,
    confidence: '1.0',
    visibility: item.visibility,
    notability: 'medium',
    valid_from: today,
    valid_until: item.valid_until ?? '',
    source: item.provenance,
    context: '',
  };
}
