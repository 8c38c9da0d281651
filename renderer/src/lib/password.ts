import { PASSWORD_MIN_LENGTH, passwordProblem } from '../../../server/contracts/auth';
import { t } from './i18n';

/** The hint under a new-password field: the service's minimum length. */
export function passwordHint(): string {
  return t('auth.passwordHint', { min: PASSWORD_MIN_LENGTH });
}

/** Why a new password would be refused, in the person's language, or null when it is fine. */
export function newPasswordError(password: string): string | null {
  const problem = passwordProblem(password);
  if (problem === 'tooShort') return t('auth.passwordTooShort', { min: PASSWORD_MIN_LENGTH });
  if (problem === 'tooLong') return t('auth.passwordTooLong');
  return null;
}
