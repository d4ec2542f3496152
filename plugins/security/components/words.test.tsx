import { render } from '@testing-library/react';
import { createIntl, FormattedMessage, IntlProvider } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { localeTag } from '../../../schemas/locale';
import { messagesOf } from '../../../tests/kit/web';
import type { HistoryDetail, HistoryKind } from '../contract';
import { testEntry } from '../test-backend';
import { browserText, GROUP_IDS, GROUPS, historySentence, methodText } from './words';

const LOCALES = ['en_US', 'zh_CN'] as const;

/** Renders one history entry's sentence as the page does, in `locale`. */
function sentence(kind: HistoryKind, detail: HistoryDetail, locale: (typeof LOCALES)[number]) {
  const messages = messagesOf(locale);
  const s = historySentence(testEntry('e', { kind, detail }), translator(locale));
  expect(messages[s.id], `${s.id} in ${locale}`).toBeTruthy();
  const { container, unmount } = render(
    <IntlProvider locale={localeTag(locale)} messages={messages}>
      <FormattedMessage id={s.id} values={s.values} />
    </IntlProvider>,
  );
  const text = container.textContent ?? '';
  unmount();
  return text;
}

/** `intl.formatMessage` in `locale`, as the page's `t`. */
function translator(locale: (typeof LOCALES)[number]) {
  const intl = createIntl({ locale: localeTag(locale), messages: messagesOf(locale) });
  return (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
}

describe('the page’s words', () => {
  it('every kind and branch of the history says a sentence in both languages, with no id or placeholder left', () => {
    const cases: Array<[HistoryKind, HistoryDetail]> = [
      ['sign-in.succeeded', { method: 'password' }],
      ['sign-in.succeeded', {}],
      ['sign-in.failed', { method: 'ldap', reason: 'directory-refused' }],
      ['sign-in.failed', { method: 'dingtalk', reason: 'third-party-refused' }],
      ['sign-in.failed', { method: 'password', reason: 'slider-failed' }],
      ['sign-in.failed', { method: 'password', reason: 'locked' }],
      ['sign-in.failed', { method: 'password' }],
      ['reauth.succeeded', { method: 'ad' }],
      ['reauth.succeeded', { method: 'directory' }],
      ['reauth.failed', { method: 'password', reason: 'wrong-password' }],
      ['account.locked', { until: '2026-11-27T10:00:00.000Z' }],
      ['account.locked', {}],
      ['account.unlocked', { by: 'admin' }],
      ['account.unlocked', { by: 'time' }],
      ['account.unlocked', {}],
      ['password.changed', { how: 'settings' }],
      ['password.changed', { how: 'recovery' }],
      ['password.changed', { how: 'first-sign-in' }],
      ['password.changed', { how: 'admin' }],
      ['password.changed', {}],
      ['email.changed', { email: 'a***@example.com' }],
      ['email.changed', {}],
      ['sign-in.new-device', {}],
      ['credential.created', { credential: 'token', name: 'ci' }],
      ['credential.deleted', { credential: 'token', name: 'ci' }],
      ['credential.created', { credential: 'ssh-key', name: 'laptop' }],
      ['credential.deleted', { credential: 'ssh-key', name: 'laptop' }],
      ['credential.created', { credential: 'packages-password' }],
      ['credential.deleted', { credential: 'packages-password' }],
      ['credential.created', { credential: 'something-new', name: 'x' }],
      ['credential.deleted', { credential: 'something-new', name: 'x' }],
      ['session.ended', { by: 'member', count: 1 }],
      ['session.ended', { by: 'not-me', count: 3 }],
      ['session.ended', { by: 'admin', count: 2 }],
      ['session.ended', { by: 'time' }],
      ['session.ended', {}],
      ['account.not-me', {}],
      ['sign-in.succeeded', { method: 'password', factor: 'totp' }],
      ['sign-in.succeeded', { method: 'ldap', factor: 'webauthn' }],
      ['sign-in.succeeded', { method: 'password', factor: 'recovery', left: 3 }],
      ['sign-in.failed', { method: 'password', reason: 'wrong-second-factor' }],
      ['second-factor.added', { factor: 'totp' }],
      ['second-factor.added', { factor: 'webauthn', name: 'YubiKey 5' }],
      ['second-factor.removed', { factor: 'totp', by: 'member' }],
      ['second-factor.removed', { factor: 'webauthn', name: 'Phone', by: 'member' }],
      ['second-factor.removed', { factor: 'totp', by: 'admin' }],
      ['second-factor.removed', { factor: 'webauthn', name: 'Phone', by: 'admin' }],
      ['second-factor.removed', { factor: 'all', by: 'member' }],
      ['second-factor.removed', { factor: 'all', by: 'admin' }],
      ['recovery-codes.generated', { count: 10 }],
      ['recovery-codes.generated', {}],
      ['recovery-code.used', { left: 1 }],
      ['recovery-code.used', { left: 0 }],
      [
        'credential.refused',
        { credential: 'token', name: 'ci', action: 'GET /oapi/v1/platform/user', refusal: 'expired' },
      ],
      [
        'credential.refused',
        { credential: 'ssh-key', name: 'laptop', action: 'git-receive-pack acme/app', refusal: 'read-only' },
      ],
      ['credential.refused', { credential: 'packages-password', action: 'download /npm/a.tgz', refusal: 'not-yet' }],
      ['credential.refused', { credential: 'something-new', name: 'x', action: 'y' }],
      [
        'credentials.stale-revoked',
        {
          revoked: [
            { credential: 'token', count: 2 },
            { credential: 'session', count: 1 },
          ],
        },
      ],
      ['credentials.stale-revoked', {}],
      ['credential.regenerated', { credential: 'token', name: 'ci' }],
      ['credential.recreated', { credential: 'token', name: 'ci' }],
    ];
    const seen = new Map<string, string>();
    for (const locale of LOCALES)
      for (const [kind, detail] of cases) {
        const text = sentence(kind, detail, locale);
        expect(text, `${kind} ${JSON.stringify(detail)} in ${locale}`).not.toMatch(/security\.|\{|\}/);
        expect(text.length).toBeGreaterThan(3);
        seen.set(`${locale} ${kind} ${JSON.stringify(detail)}`, text);
      }
    expect(seen.get('en_US sign-in.failed {"method":"ldap","reason":"directory-refused"}')).toBe(
      'Sign-in failed (LDAP): the directory refused the password',
    );
    expect(seen.get('en_US credential.regenerated {"credential":"token","name":"ci"}')).toBe(
      'Personal access token “ci” regenerated',
    );
    expect(seen.get('zh_CN credential.recreated {"credential":"token","name":"ci"}')).toBe(
      '重新创建了已过期的个人访问令牌“ci”',
    );
    expect(seen.get('zh_CN credential.created {"credential":"ssh-key","name":"laptop"}')).toBe(
      '添加了 SSH 公钥“laptop”',
    );
    expect(seen.get('zh_CN reauth.succeeded {"method":"directory"}')).toBe('身份验证成功（目录服务密码）');
    expect(seen.get('en_US session.ended {"by":"member","count":1}')).toBe('1 other session signed out by you');
    expect(seen.get('en_US account.locked {"until":"2026-11-27T10:00:00.000Z"}')).toMatch(
      /^Account locked until 2026-11-27 \d\d:\d\d$/,
    );
    expect(seen.get('en_US sign-in.succeeded {"method":"password","factor":"totp"}')).toBe(
      'Signed in (Password and authenticator app)',
    );
    expect(seen.get('zh_CN second-factor.added {"factor":"webauthn","name":"YubiKey 5"}')).toBe(
      '添加了通行密钥“YubiKey 5”',
    );
    expect(seen.get('en_US second-factor.removed {"factor":"all","by":"admin"}')).toBe(
      'All two-factor methods and recovery codes removed by an administrator',
    );
    expect(seen.get('en_US recovery-code.used {"left":0}')).toBe('Recovery code used; none left');
    expect(
      seen.get(
        'en_US credential.refused {"credential":"ssh-key","name":"laptop","action":"git-receive-pack acme/app","refusal":"read-only"}',
      ),
    ).toBe('SSH key “laptop” refused: the SSH key is read-only (git-receive-pack acme/app)');
    expect(
      seen.get(
        'zh_CN credential.refused {"credential":"packages-password","action":"download /npm/a.tgz","refusal":"not-yet"}',
      ),
    ).toBe('制品仓库密码被拒绝：新密码尚未生效（download /npm/a.tgz）');
    expect(
      seen.get(
        'en_US credentials.stale-revoked {"revoked":[{"credential":"token","count":2},{"credential":"session","count":1}]}',
      ),
    ).toBe('3 stale credentials revoked');
    expect(seen.get('en_US sign-in.failed {"method":"password","reason":"wrong-second-factor"}')).toBe(
      'Sign-in failed (Password): the two-factor check failed',
    );
    // A kind a newer service writes is said plainly rather than dropped.
    expect(sentence('account.future' as HistoryKind, {}, 'en_US')).toBe('Account event: account.future');
  });

  it('groups, methods and browsers in words, in both languages', () => {
    for (const locale of LOCALES) {
      const messages = messagesOf(locale);
      for (const g of GROUPS) expect(messages[GROUP_IDS[g]], `${g} in ${locale}`).toBeTruthy();
    }
    const t = translator('en_US');
    expect(
      ['password', 'ldap', 'ad', 'dingtalk', 'lark', 'wecom', 'unknown', 'okta'].map((m) => methodText(m, t)),
    ).toEqual(['Password', 'LDAP', 'Windows AD', 'DingTalk', 'Lark', 'WeCom', 'Unknown', 'okta']);
    expect(browserText({ name: 'Chrome', version: '131', os: 'Windows' }, t)).toBe('Chrome 131 on Windows');
    expect(browserText({ name: 'Firefox', version: null, os: null }, t)).toBe('Firefox');
    expect(browserText({ name: null, version: null, os: 'Linux' }, t)).toBe('Unknown browser on Linux');
    expect(browserText(null, t)).toBe('Unknown browser');
  });
});
