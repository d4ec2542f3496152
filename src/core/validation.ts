/** Shared form rules; each returns a message id (or undefined when valid) so forms translate in their own locale. */

import { PASSWORD_CHINESE_RE, passwordRuleBreak, type PasswordRuleBreak } from '../../schemas/password-rule';

/** The password rule's limits (one definition, shared with the service). */
export { PASSWORD_MIN_LENGTH, PASSWORD_SPECIAL_CHARS } from '../../schemas/password-rule';
/** Length of e-mailed verification codes. */
export const VERIFICATION_CODE_LENGTH = 6;
/** Keys the numeric input filter lets through besides digits: editing and navigation. */
export const NUMERIC_CONTROL_KEYS: readonly string[] = [
  'Backspace',
  'Delete',
  'ArrowLeft',
  'ArrowRight',
  'ArrowUp',
  'ArrowDown',
  'Tab',
];

/** A validation outcome: the message id of the first broken rule, or undefined. */
export type ValidationResult = string | undefined;

const PASSWORD_MESSAGES: Record<PasswordRuleBreak, string> = {
  tooShort: 'core.validation.passwordTooShort',
  characters: 'core.validation.passwordInvalidChars',
  composition: 'core.validation.passwordComposition',
};
// local@domain.tld: no spaces, one @, a dot in the domain, no leading/trailing dots in labels.
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const PHONE = /^1[3-9]\d{9}$/;
const CODE = new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`);

/** Password strength rule: ≥ 8 chars, letters + digits + one of @#$%^&*, nothing else, no Chinese. */
export function validatePassword(password: string | null | undefined): ValidationResult {
  const pw = password ?? '';
  if (!pw) return 'core.validation.passwordRequired';
  if (PASSWORD_CHINESE_RE.test(pw)) return 'core.validation.passwordChinese';
  const broken = passwordRuleBreak(pw);
  return broken ? PASSWORD_MESSAGES[broken] : undefined;
}

/** The confirmation field must repeat the password exactly. */
export function validatePasswordConfirmation(
  password: string | null | undefined,
  confirmation: string | null | undefined,
): ValidationResult {
  return (password ?? '') === (confirmation ?? '') ? undefined : 'core.validation.passwordMismatch';
}

/** A password change must actually change the password; no old password means nothing to compare. */
export function validateNewPasswordDiffers(
  oldPassword: string | null | undefined,
  newPassword: string | null | undefined,
): ValidationResult {
  return oldPassword && oldPassword === newPassword ? 'core.validation.passwordSameAsOld' : undefined;
}

/** Standard local@domain address; surrounding spaces are the caller's to trim. */
export function validateEmail(email: string | null | undefined): ValidationResult {
  const v = email ?? '';
  if (!v) return 'core.validation.emailRequired';
  return EMAIL.test(v) ? undefined : 'core.validation.emailInvalid';
}

/** Mainland China mobile number: 11 digits, 1 then 3–9. */
export function validatePhone(phone: string | null | undefined): ValidationResult {
  const v = phone ?? '';
  if (!v) return 'core.validation.phoneRequired';
  return PHONE.test(v) ? undefined : 'core.validation.phoneInvalid';
}

/** The e-mailed verification code: exactly 6 digits. */
export function validateVerificationCode(code: string | null | undefined): ValidationResult {
  const v = code ?? '';
  if (!v) return 'core.validation.codeRequired';
  return CODE.test(v) ? undefined : 'core.validation.codeInvalid';
}

/** For onKeyDown of digit-only inputs: true when the key may pass (digits and editing/navigation keys). */
export function isAllowedNumericKey(key: string): boolean {
  return /^[0-9]$/.test(key) || NUMERIC_CONTROL_KEYS.includes(key);
}
