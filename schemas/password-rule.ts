/**
 * The password rule, once for the web form and the service (no imports: safe in any bundle).
 * ≥ 8 characters; letters, digits and at least one of @#$%^&*; nothing else (so no Chinese either).
 */

/** Minimum password length. */
export const PASSWORD_MIN_LENGTH = 8;
/** Longest new password the service accepts (a cap on hashing work, far above any real password). */
export const PASSWORD_MAX_LENGTH = 128;
/** The special characters a password must draw at least one from, and the only non-alphanumerics it may contain. */
export const PASSWORD_SPECIAL_CHARS = '@#$%^&*';

const specials = PASSWORD_SPECIAL_CHARS.replace(/[\\\]^-]/g, '\\$&');
/** Only letters, digits and the special characters. */
export const PASSWORD_ALLOWED_RE = new RegExp(`^[A-Za-z0-9${specials}]+$`);
/** At least one letter. */
export const PASSWORD_LETTER_RE = /[A-Za-z]/;
/** At least one digit. */
export const PASSWORD_DIGIT_RE = /[0-9]/;
/** At least one special character. */
export const PASSWORD_SPECIAL_RE = new RegExp(`[${specials}]`);
/** Chinese characters and full-width punctuation: the form names this case on its own. */
export const PASSWORD_CHINESE_RE = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]/;

/** Which part of the rule a password breaks, checked in this order. */
export type PasswordRuleBreak = 'tooShort' | 'characters' | 'composition';

/** The first part of the rule a (non-empty) password breaks, or null when it is acceptable. */
export function passwordRuleBreak(pw: string): PasswordRuleBreak | null {
  if (pw.length < PASSWORD_MIN_LENGTH) return 'tooShort';
  if (!PASSWORD_ALLOWED_RE.test(pw)) return 'characters';
  if (!PASSWORD_LETTER_RE.test(pw) || !PASSWORD_DIGIT_RE.test(pw) || !PASSWORD_SPECIAL_RE.test(pw))
    return 'composition';
  return null;
}
