import { BrainstreamError } from '../errors.js';

/**
 * Typed refusals of the core-memory rules. Each is a `BrainstreamError` (exit 1, one line
 * `brainstream: <code>: <message>`); `details` are the extra fields of the JSON envelope,
 * which `toEnvelope()` assembles as `{error, message, ...details}`.
 */
export class CoreMemoryError<Code extends string = string, Details extends object = Record<string, unknown>> extends BrainstreamError {
  declare readonly code: Code;
  declare readonly details: Details & Record<string, unknown>;

  constructor(code: Code, message: string, details?: Details) {
    super(code, message, (details ?? {}) as Record<string, unknown>);
    this.name = 'CoreMemoryError';
  }

  toEnvelope(): { error: Code; message: string } & Details {
    return { error: this.code, message: this.message, ...this.details };
  }
}

export interface LargestCorePage {
  source_id: string;
  slug: string;
  chars: number;
}

export interface CoreBudgetDetails {
  suggestion: string;
  reason: 'max_chars' | 'max_pages';
  projected_chars: number;
  current_chars: number;
  max_chars: number;
  over_by: number;
  page_count: number;
  max_pages: number;
  largest_pages: LargestCorePage[];
}

export class CoreBudgetExceededError extends CoreMemoryError<'core_budget_exceeded', CoreBudgetDetails> {
  constructor(message: string, details: CoreBudgetDetails) {
    super('core_budget_exceeded', message, details);
    this.name = 'CoreBudgetExceededError';
  }
}

export interface OwnerOnlyDetails {
  source_id: string;
  slug: string;
  /** The command the user can run on the brain host. */
  command: string;
}

export class CoreMarkOwnerOnlyError extends CoreMemoryError<'core_mark_owner_only', OwnerOnlyDetails> {
  constructor(message: string, details: OwnerOnlyDetails) {
    super('core_mark_owner_only', message, details);
    this.name = 'CoreMarkOwnerOnlyError';
  }
}

export class CoreDeleteOwnerOnlyError extends CoreMemoryError<'core_delete_owner_only', OwnerOnlyDetails> {
  constructor(message: string, details: OwnerOnlyDetails) {
    super('core_delete_owner_only', message, details);
    this.name = 'CoreDeleteOwnerOnlyError';
  }
}

export class CoreRemoteEditRefusedError extends CoreMemoryError<'core_remote_edit_refused', { source_id: string; slug: string }> {
  constructor(message: string, details: { source_id: string; slug: string }) {
    super('core_remote_edit_refused', message, details);
    this.name = 'CoreRemoteEditRefusedError';
  }
}

export class RevisionNotFoundError extends CoreMemoryError<'revision_not_found', { source_id: string; slug: string; revision: string }> {
  constructor(message: string, details: { source_id: string; slug: string; revision: string }) {
    super('revision_not_found', message, details);
    this.name = 'RevisionNotFoundError';
  }
}

/** `remember` validation: `invalid_params`, or `provenance_required` when that failed first. */
export class RememberParamsError extends CoreMemoryError<'invalid_params' | 'provenance_required', { index?: number; field?: string }> {
  constructor(code: 'invalid_params' | 'provenance_required', message: string, details: { index?: number; field?: string } = {}) {
    super(code, message, details);
    this.name = 'RememberParamsError';
  }
}

export class UnknownConfigKeyError extends CoreMemoryError<'unknown_config_key', { key: string }> {
  constructor(message: string, key: string) {
    super('unknown_config_key', message, { key });
    this.name = 'UnknownConfigKeyError';
  }
}

export class InvalidConfigValueError extends CoreMemoryError<'invalid_config_value', { key: string; value: string; allowed: string }> {
  constructor(message: string, details: { key: string; value: string; allowed: string }) {
    super('invalid_config_value', message, details);
    this.name = 'InvalidConfigValueError';
  }
}
