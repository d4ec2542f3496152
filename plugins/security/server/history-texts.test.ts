import { describe, expect, it } from 'vitest';
import { HISTORY_KINDS, FAILURE_REASONS } from '../limits';
import { HISTORY_TEXTS, describeDetail } from './history-texts';

// The history's words for the second factor (issue 41): the export and the admin CLI say each kind, reason, factor
// and count in both languages.

describe('history texts of the second factor', () => {
  it('names every kind and failure reason in both languages', () => {
    for (const t of Object.values(HISTORY_TEXTS)) {
      for (const k of HISTORY_KINDS) expect(t.kinds[k], k).toBeTruthy();
      for (const r of FAILURE_REASONS) expect(t.reasons[r], r).toBeTruthy();
    }
  });

  it('says the factor a sign-in answered, the factor added or removed, and the codes made or left', () => {
    const en = HISTORY_TEXTS.en_US;
    const zh = HISTORY_TEXTS.zh_CN;
    expect(describeDetail(en, 'sign-in.succeeded', { method: 'password', factor: 'totp' })).toBe(
      'Method: password; Second factor: Authenticator app',
    );
    expect(describeDetail(en, 'sign-in.succeeded', { method: 'passkey' })).toBe('Method: passkey');
    expect(describeDetail(zh, 'sign-in.succeeded', { method: 'passkey' })).toBe('方式：通行密钥');
    expect(describeDetail(en, 'sign-in.failed', { method: 'password', reason: 'wrong-second-factor' })).toBe(
      'Method: password; Reason: wrong two-factor code or passkey',
    );
    expect(describeDetail(en, 'second-factor.removed', { factor: 'all', by: 'admin' })).toBe(
      'All two-factor methods and recovery codes; by an administrator',
    );
    expect(describeDetail(zh, 'second-factor.added', { factor: 'webauthn', name: 'YubiKey' })).toBe('通行密钥');
    expect(describeDetail(en, 'recovery-codes.generated', { count: 10 })).toBe('10 codes');
    expect(describeDetail(zh, 'recovery-codes.generated', { count: 10 })).toBe('10 个恢复码');
    expect(describeDetail(en, 'recovery-code.used', { left: 2 })).toBe('2 left');
    expect(describeDetail(zh, 'recovery-code.used', { left: 2 })).toBe('剩余 2 个');
  });
});
