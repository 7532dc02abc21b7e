import type { ContractError } from '../../../shared/contract/errors';
import { ProblemWords } from './ProblemWords';

/** An error in words, and what to do about it. */
export function ErrorText({ error, id }: { error: ContractError | null | undefined; id?: string }) {
  if (!error) return null;
  return (
    <p className="error-text" role="alert" id={id}>
      <span className="error-symbol" aria-hidden="true">
        ⚠
      </span>{' '}
      <ProblemWords message={error.message} remedy={error.remedy} />
    </p>
  );
}

/** The error of a form when it names this field (or one inside it: `inputs.2`). */
export function errorFor(error: ContractError | null, field: string): ContractError | null {
  if (!error?.field) return null;
  return error.field === field || error.field.startsWith(`${field}.`) ? error : null;
}

/** The error when it names none of the form's fields: shown by the form's button. */
export function errorElsewhere(error: ContractError | null, fields: readonly string[]): ContractError | null {
  if (!error) return null;
  return fields.some((f) => errorFor(error, f)) ? null : error;
}
