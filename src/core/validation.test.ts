import { describe, expect, it } from 'vitest';
import {
  isAllowedNumericKey,
  validateEmail,
  validateNewPasswordDiffers,
  validatePassword,
  validatePasswordConfirmation,
  validatePhone,
  validateVerificationCode,
} from './validation';

describe('password rule', () => {
  it('accepts letters + digits + one of @#$%^&* with at least 8 characters', () => {
    expect(validatePassword('abcd123@')).toBeUndefined();
    for (const c of '@#$%^&*') expect(validatePassword(`Passw0rd${c}`)).toBeUndefined();
  });
  it('requires a value and at least 8 characters', () => {
    expect(validatePassword('')).toBe('core.validation.passwordRequired');
    expect(validatePassword(undefined)).toBe('core.validation.passwordRequired');
    expect(validatePassword('ab12@xy')).toBe('core.validation.passwordTooShort');
  });
  it('requires letters, digits and a special character together', () => {
    expect(validatePassword('abcdefgh1')).toBe('core.validation.passwordComposition');
    expect(validatePassword('abcdefg@')).toBe('core.validation.passwordComposition');
    expect(validatePassword('1234567@')).toBe('core.validation.passwordComposition');
  });
  it('refuses characters outside letters, digits and @#$%^&*', () => {
    expect(validatePassword('abc123@!x')).toBe('core.validation.passwordInvalidChars');
    expect(validatePassword('abc 123@x')).toBe('core.validation.passwordInvalidChars');
    expect(validatePassword('abc123@xé')).toBe('core.validation.passwordInvalidChars');
  });
  it('refuses Chinese characters (including full-width punctuation)', () => {
    expect(validatePassword('abc123@x密码')).toBe('core.validation.passwordChinese');
    expect(validatePassword('abc123@x，')).toBe('core.validation.passwordChinese');
  });
  it('needs a matching confirmation and a new password different from the old', () => {
    expect(validatePasswordConfirmation('abc123@x', 'abc123@x')).toBeUndefined();
    expect(validatePasswordConfirmation('abc123@x', 'abc123@y')).toBe('core.validation.passwordMismatch');
    expect(validateNewPasswordDiffers('abc123@x', 'abc123@x')).toBe('core.validation.passwordSameAsOld');
    expect(validateNewPasswordDiffers('abc123@x', 'abc123@y')).toBeUndefined();
    expect(validateNewPasswordDiffers(undefined, 'abc123@y')).toBeUndefined();
  });
});

describe('e-mail, phone, code', () => {
  it('checks local@domain format', () => {
    expect(validateEmail('a.b+c@example.co.uk')).toBeUndefined();
    for (const bad of ['a', 'a@', '@b.com', 'a@b', 'a b@c.com', 'a@@b.com', 'a@b..com', 'a@-b.com'])
      expect(validateEmail(bad)).toBe('core.validation.emailInvalid');
    expect(validateEmail('')).toBe('core.validation.emailRequired');
  });
  it('accepts mainland phones: 11 digits, 1 then 3-9', () => {
    expect(validatePhone('13800138000')).toBeUndefined();
    expect(validatePhone('19912345678')).toBeUndefined();
    for (const bad of ['12800138000', '10800138000', '1380013800', '138001380000', '2380013800a', '+8613800138000'])
      expect(validatePhone(bad)).toBe('core.validation.phoneInvalid');
    expect(validatePhone('')).toBe('core.validation.phoneRequired');
  });
  it('accepts exactly 6 digits as a verification code', () => {
    expect(validateVerificationCode('012345')).toBeUndefined();
    for (const bad of ['12345', '1234567', '12345a', ' 123456'])
      expect(validateVerificationCode(bad)).toBe('core.validation.codeInvalid');
    expect(validateVerificationCode('')).toBe('core.validation.codeRequired');
  });
  it('lets only digits and editing/navigation keys through the numeric filter', () => {
    for (const k of ['0', '5', '9', 'Backspace', 'Delete', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Tab'])
      expect(isAllowedNumericKey(k)).toBe(true);
    for (const k of ['a', 'e', '-', '+', '.', ' ', 'Enter', '12', 'F5']) expect(isAllowedNumericKey(k)).toBe(false);
  });
});
