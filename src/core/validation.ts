/** Shared form rules; each returns a message id (or undefined when valid) so forms translate in their own locale. */

/** Minimum password length. */
export const PASSWORD_MIN_LENGTH = 8;
/** The special characters a password must draw at least one from, and the only non-alphanumerics it may contain. */
export const PASSWORD_SPECIAL_CHARS = '@#$%^&*';
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

const CHINESE = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]/;
const LETTER = /[A-Za-z]/;
const DIGIT = /[0-9]/;
const SPECIAL = /[@#$%^&*]/;
const ALLOWED = /^[A-Za-z0-9@#$%^&*]+$/;
// local@domain.tld: no spaces, one @, a dot in the domain, no leading/trailing dots in labels.
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const PHONE = /^1[3-9]\d{9}$/;
const CODE = new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`);

/** Password strength rule: ≥ 8 chars, letters + digits + one of @#$%^&*, nothing else, no Chinese. */
export function validatePassword(password: string | null | undefined): ValidationResult {
  const pw = password ?? '';
  if (!pw) return 'core.validation.passwordRequired';
  if (CHINESE.test(pw)) return 'core.validation.passwordChinese';
  if (pw.length < PASSWORD_MIN_LENGTH) return 'core.validation.passwordTooShort';
  if (!ALLOWED.test(pw)) return 'core.validation.passwordInvalidChars';
  if (!LETTER.test(pw) || !DIGIT.test(pw) || !SPECIAL.test(pw)) return 'core.validation.passwordComposition';
  return undefined;
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
