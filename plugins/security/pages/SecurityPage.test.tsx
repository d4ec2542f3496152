import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Locale } from '../../../src/core/edition';
import { renderWithCore } from '../../../tests/kit/web';
import { PATHS } from '../api';
import { securityBackend, testBrowser, testEntry, testSession, type SecurityBackendOptions } from '../test-backend';
import { SecurityView } from './SecurityPage';

/** The page's clock: five minutes after the sessions' default last activity. */
const NOW = Date.parse('2026-11-27T09:05:00.000Z');
const clock = () => NOW;
const ROUTE = '/users/settings/security';

async function mount(
  options: SecurityBackendOptions,
  { locale = 'en_US', route = ROUTE }: { locale?: Locale; route?: string } = {},
) {
  const backend = securityBackend(options);
  const view = await renderWithCore(<SecurityView clock={clock} />, {
    backend,
    locale,
    route,
    path: '/users/settings/security',
  });
  // The page shows once its store's module has loaded.
  await screen.findByTestId('security', undefined, { timeout: 10_000 });
  return view;
}

/** The open confirmation (antd renders it in a portal). */
const popconfirm = () =>
  waitFor(() => {
    const el = document.querySelector('.ant-popconfirm:not(.ant-popover-hidden)');
    if (!el) throw new Error('no confirmation open');
    return el as HTMLElement;
  });
const confirm = async (name: string) => {
  const pop = await popconfirm();
  await act(async () => fireEvent.click(within(pop).getByRole('button', { name })));
};
const sessionsPart = () => screen.getByTestId('security-sessions');
const rowOf = (part: HTMLElement, id: string) => part.querySelector(`tr[data-row-key="${id}"]`) as HTMLElement;

const HERE = testSession('s-here', { current: true, browser: { name: 'Firefox', version: '132', os: 'Linux' } });
const PHONE = testSession('s-phone', {
  browser: { name: 'Safari', version: '18', os: 'iOS' },
  method: 'dingtalk',
  address: '198.51.100.4',
  place: 'Hangzhou',
});
const OLD = testSession('s-old', { browser: { name: null, version: null, os: null }, method: 'ldap', address: null });

describe('security page', () => {
  it('lists the sessions: browser and OS, method in words, address and place, this device, timeouts', async () => {
    await mount({ sessions: [HERE, PHONE, OLD] });
    const part = sessionsPart();
    await waitFor(() => expect(within(part).getAllByTestId('security-session-browser')).toHaveLength(3));
    expect(
      within(part)
        .getAllByTestId('security-session-browser')
        .map((e) => e.textContent),
    ).toEqual(['Firefox 132 on Linux', 'Safari 18 on iOS', 'Unknown browser']);
    const here = rowOf(part, 's-here');
    expect(within(here).getByTestId('security-session-current').textContent).toBe('This device');
    // The session in use is not signed out here (that is signing out): no button on its row.
    expect(within(here).queryByRole('button', { name: 'Sign out' })).toBeNull();
    expect(within(here).getByText('Current session')).toBeTruthy();
    const phone = rowOf(part, 's-phone');
    expect(within(phone).getByText('DingTalk')).toBeTruthy();
    expect(within(phone).getByText('198.51.100.4')).toBeTruthy();
    expect(within(phone).getByText('Hangzhou')).toBeTruthy();
    expect(within(phone).getByText('5 minutes ago')).toBeTruthy();
    expect(within(phone).queryByTestId('security-session-current')).toBeNull();
    expect(within(rowOf(part, 's-old')).getByText('LDAP')).toBeTruthy();
    expect(within(rowOf(part, 's-old')).getByText('Not recorded')).toBeTruthy();
    expect(screen.getByTestId('security-sessions-timeouts').textContent).toBe(
      'A session ends after 120 minutes without activity, and at the latest 24 hours after signing in.',
    );
  });

  it('signs out one session and then all the others, each after a confirmation', async () => {
    const view = await mount({ sessions: [HERE, PHONE, OLD, testSession('s-4')] });
    const part = sessionsPart();
    await waitFor(() => expect(rowOf(part, 's-phone')).toBeTruthy());
    fireEvent.click(within(rowOf(part, 's-phone')).getByRole('button', { name: 'Sign out' }));
    expect((await popconfirm()).textContent).toContain('Sign out Safari 18 on iOS?');
    expect(view.backend.callsTo(`DELETE ${PATHS.session}`)).toHaveLength(0);
    await confirm('Sign out');
    await waitFor(() => expect(rowOf(part, 's-phone')).toBeNull());
    expect(view.backend.callsTo(`DELETE ${PATHS.session}`).map((c) => c.path)).toEqual([
      '/users/ajax/v1/my/sessions/s-phone',
    ]);
    expect(await screen.findByText('The session has been signed out')).toBeTruthy();
    // The keyboard goes on from the part's title, not from a button that left.
    expect(document.activeElement?.id).toBe('security-sessions-title');

    fireEvent.click(screen.getByTestId('security-sessions-end-others'));
    expect((await popconfirm()).textContent).toContain('Sign out all 2 other sessions?');
    await confirm('Sign out all other sessions');
    expect(await screen.findByText('2 other sessions have been signed out')).toBeTruthy();
    expect(view.backend.callsTo(`POST ${PATHS.endOthers}`)).toHaveLength(1);
    await waitFor(() => expect(within(part).getAllByTestId('security-session-browser')).toHaveLength(1));
    // Nothing left to sign out: the button is gone.
    expect(screen.queryByTestId('security-sessions-end-others')).toBeNull();
  });

  it('trusted browsers: this browser, forget after a confirmation, then what trust means', async () => {
    const view = await mount({ browsers: [testBrowser('b1', { current: true })] });
    const part = screen.getByTestId('security-browsers');
    expect((await within(part).findByTestId('security-browser-name')).textContent).toBe('Firefox 132 on Linux');
    expect(within(part).getByTestId('security-browser-current').textContent).toBe('This browser');
    fireEvent.click(within(part).getByRole('button', { name: 'Forget this browser' }));
    expect((await popconfirm()).textContent).toContain('This is the browser you are using.');
    await confirm('Forget this browser');
    expect(await within(part).findByTestId('security-browsers-empty')).toBeTruthy();
    expect(within(part).getByTestId('security-browsers-empty').textContent).toMatch(
      /^No trusted browsers yet\. A browser becomes trusted when your account signs in with it/,
    );
    expect(view.backend.callsTo(`DELETE ${PATHS.trustedBrowser}`).map((c) => c.path)).toEqual([
      '/users/ajax/v1/my/trusted-browsers/b1',
    ]);
  });

  it('history: sentences per kind and reason, filter by group, load more, export of the group shown', async () => {
    const view = await mount({
      pageSize: 3,
      history: [
        testEntry('h1', { kind: 'sign-in.failed', detail: { method: 'password', reason: 'wrong-password' } }),
        testEntry('h2', { kind: 'credential.created', detail: { credential: 'token', name: 'ci' }, browser: null }),
        testEntry('h3', { kind: 'session.ended', detail: { by: 'member', count: 2 }, address: null }),
        testEntry('h4', { kind: 'sign-in.succeeded', detail: { method: 'lark' } }),
        testEntry('h5', { kind: 'password.changed', detail: { how: 'recovery' } }),
      ],
    });
    const part = screen.getByTestId('security-history');
    const events = () =>
      within(part)
        .queryAllByTestId('security-history-event')
        .map((e) => e.textContent);
    await waitFor(() =>
      expect(events()).toEqual([
        'Sign-in failed (Password): wrong password',
        'Personal access token “ci” created',
        '2 other sessions signed out by you',
      ]),
    );
    const h2 = rowOf(part, 'h2');
    expect(within(h2).getByText('Not recorded')).toBeTruthy();
    expect(within(rowOf(part, 'h1')).getByText('Chrome 131 on Windows')).toBeTruthy();
    const exportLink = within(part).getByRole('link', { name: /Export CSV/ });
    expect(exportLink.getAttribute('href')).toBe('/users/ajax/v1/my/history.csv');

    await act(async () => fireEvent.click(within(part).getByRole('button', { name: 'Load more' })));
    await waitFor(() => expect(events()).toHaveLength(5));
    expect(events().slice(3)).toEqual(['Signed in (Lark)', 'Password reset through password recovery']);
    expect(within(part).queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(view.backend.callsTo(`GET ${PATHS.history}`).at(-1)?.query).toEqual({ cursor: 'h4' });

    // The filter: a labelled select of the groups, in words.
    const select = within(part).getByRole('combobox', { name: 'Show' });
    fireEvent.mouseDown(select);
    await act(async () => fireEvent.click(await screen.findByTitle('Password')));
    await waitFor(() => expect(events()).toEqual(['Password reset through password recovery']));
    expect(view.backend.callsTo(`GET ${PATHS.history}`).at(-1)?.query).toEqual({ group: 'password' });
    expect(exportLink.getAttribute('href')).toBe('/users/ajax/v1/my/history.csv?group=password');
  });

  it('says in Chinese what happened, with the provider in its Chinese name', async () => {
    await mount(
      {
        sessions: [HERE, PHONE],
        history: [
          testEntry('h1', { kind: 'account.locked', detail: {} }),
          testEntry('h2', { detail: { method: 'wecom' } }),
        ],
      },
      { locale: 'zh_CN' },
    );
    const part = screen.getByTestId('security-history');
    await waitFor(() =>
      expect(
        within(part)
          .getAllByTestId('security-history-event')
          .map((e) => e.textContent),
      ).toEqual(['账号已锁定，需管理员解锁', '登录成功（企业微信）']),
    );
    expect(within(rowOf(sessionsPart(), 's-phone')).getByText('钉钉')).toBeTruthy();
    expect(within(rowOf(sessionsPart(), 's-phone')).getByText('iOS 上的 Safari 18')).toBeTruthy();
    expect(screen.getByTestId('security-sessions-timeouts').textContent).toBe(
      '会话无操作 120 分钟后结束，最迟在登录 24 小时后结束。',
    );
  });

  it('each list says when it could not be loaded, and retries', async () => {
    let fail = true;
    const view = await mount({
      sessions: [HERE],
      fail: (c) => (fail && c.method === 'GET' && c.path === PATHS.history ? { status: 503, code: 'X' } : undefined),
    });
    const part = screen.getByTestId('security-history');
    expect((await within(part).findByRole('alert')).textContent).toContain('Loading the history failed');
    expect(within(sessionsPart()).queryByRole('alert')).toBeNull();
    expect(view.backend.notices).toHaveLength(1);
    fail = false;
    await act(async () => fireEvent.click(within(part).getByRole('button', { name: 'Retry' })));
    expect(await within(part).findByTestId('security-history-empty')).toBeTruthy();
  });

  it('"this wasn\'t me" opens with ?not-me=1, says what it does, locks when asked, then says what was done', async () => {
    const view = await mount(
      {
        sessions: [HERE, PHONE],
        revoked: [
          { credential: 'token', count: 3 },
          { credential: 'packages-password', count: 1 },
        ],
      },
      { route: `${ROUTE}?not-me=1` },
    );
    const dialog = await screen.findByRole('dialog', {}, { timeout: 10_000 });
    expect(within(dialog).getByText('Sign out every other session (this one stays signed in)')).toBeTruthy();
    expect(within(dialog).getByText('Revoke every personal access token')).toBeTruthy();
    expect(within(dialog).getByText('Reset the artifact repository password, if you have one')).toBeTruthy();
    const lock = within(dialog).getByRole('checkbox', {
      name: 'Also lock my account until an administrator unlocks it',
    });
    fireEvent.click(lock);
    expect(within(dialog).getByText(/^Nobody, you included, can sign in/)).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Secure my account' })));
    const result = await within(dialog).findByTestId('security-not-me-result');
    expect([...result.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      '1 other session signed out',
      '3 personal access tokens revoked',
      'Artifact repository password replaced: reset it again on the artifact repository credential page to get one you can use',
      'Your account is locked until an administrator unlocks it',
    ]);
    expect(view.backend.callsTo(`POST ${PATHS.notMe}`).map((c) => c.body)).toEqual([{ lock: true }]);
    // The sessions list follows: the other one is gone.
    await waitFor(() => expect(within(sessionsPart()).getAllByTestId('security-session-browser')).toHaveLength(1));
    await act(async () => fireEvent.click(within(dialog).getByTestId('security-not-me-close')));

    // Opened again from the page's button: afresh, not the last result.
    await act(async () => fireEvent.click(screen.getByTestId('security-not-me')));
    const again = await screen.findByRole('dialog');
    expect(within(again).queryByTestId('security-not-me-result')).toBeNull();
    await act(async () => fireEvent.click(within(again).getByRole('button', { name: 'Secure my account' })));
    const done = await within(again).findByTestId('security-not-me-result');
    expect(view.backend.callsTo(`POST ${PATHS.notMe}`).at(-1)?.body).toEqual({ lock: false });
    expect(within(done).getByRole('link', { name: 'change your password' }).getAttribute('href')).toBe(
      '/users/settings/profile',
    );
  });
});
