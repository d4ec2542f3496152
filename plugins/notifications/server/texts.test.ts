import { describe, expect, it } from 'vitest';
import { messageKind } from './texts';
import type { AccountEventBody } from '../../../server/events';

// The inbox's words for the second factor (issue 41, item 7): each change is a sensitive message pointing at the
// security page, in both languages, naming the factor and who removed it.

const SECURITY = '/users/settings/security';

/** Title and body of an event in a language. */
function say(e: AccountEventBody, locale: 'en_US' | 'zh_CN') {
  const kind = messageKind(e.type)!;
  return { ...kind.text[locale](e as never), sensitive: kind.sensitive, link: kind.link };
}

describe('inbox texts of the second factor', () => {
  it('says a factor added, by kind and name', () => {
    expect(say({ type: 'second-factor.added', factor: 'totp', name: null }, 'en_US')).toMatchObject({
      title: 'Two-factor method added',
      body: expect.stringMatching(/^An authenticator app was added/),
      sensitive: true,
      link: SECURITY,
    });
    expect(say({ type: 'second-factor.added', factor: 'webauthn', name: 'YubiKey' }, 'zh_CN').body).toMatch(
      /^通行密钥“YubiKey”已添加/,
    );
  });

  it('says a factor removed, by the member or by an administrator, and all of them', () => {
    const removed = (factor: 'totp' | 'webauthn' | 'all', by: 'member' | 'admin', locale: 'en_US' | 'zh_CN') =>
      say({ type: 'second-factor.removed', factor, name: factor === 'webauthn' ? 'Phone' : null, by }, locale);
    expect(removed('webauthn', 'member', 'en_US').body).toMatch(
      /^The passkey "Phone" was removed from your account\. /,
    );
    expect(removed('totp', 'admin', 'en_US').body).toMatch(/authenticator app was removed .* by an administrator\./);
    expect(removed('all', 'admin', 'en_US')).toMatchObject({ title: 'Two-factor sign-in turned off' });
    expect(removed('all', 'admin', 'zh_CN')).toMatchObject({
      title: '两步验证已关闭',
      body: expect.stringMatching(/^管理员已移除你账号的全部第二重验证方式和恢复码。/),
    });
  });

  it('says new recovery codes, and a code used with how many are left (a warning at two)', () => {
    expect(say({ type: 'recovery-codes.generated', count: 10 }, 'en_US').body).toMatch(/^10 new recovery codes/);
    expect(say({ type: 'recovery-code.used', left: 5 }, 'en_US').body).not.toContain('Make new');
    expect(say({ type: 'recovery-code.used', left: 2 }, 'en_US').body).toContain(
      '2 left. Make new recovery codes soon.',
    );
    expect(say({ type: 'recovery-code.used', left: 1 }, 'zh_CN').body).toContain('剩余 1 个。请尽快重新生成恢复码。');
  });
});
