import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { edition } from '../../../src/core/edition';
import { PAGE_CONFIG_ELEMENT_ID } from '../../../src/core/page-config';
import { fakeBackend, ok, serviceError, type FakeRoutes } from '../../../tests/kit/fake-backend';
import { renderWithCore, TEST_USER } from '../../../tests/kit/web';
import type { SignInMethods } from '../contract';
import LoginPage from './LoginPage';

afterEach(() => {
  cleanup();
  document.getElementById(PAGE_CONFIG_ELEMENT_ID)?.remove();
});

const PUZZLE = {
  background: 'data:image/png;base64,iVBORw0KGgo=',
  piece: 'data:image/png;base64,iVBORw0KGgo=',
  width: 320,
  height: 160,
  piece_size: 56,
  piece_y: 30,
  expires_at: Date.now() + 300_000,
};

function backendFor(needCaptcha: boolean) {
  let puzzles = 0;
  let passes = 0;
  return fakeBackend({
    'POST /users/ajax/login': (req) =>
      (req.body as { password: string }).password === 'Right@pass1'
        ? ok({ user: TEST_USER, must_change_password: true, csrf_token: 'csrf-1' })
        : serviceError(401, 'AccountOrPasswordIncorrect', 'Account or password incorrect.'),
    'GET /users/ajax/users/:username/check': ok({ locked: false, need_captcha: needCaptcha }),
    'POST /users/ajax/users/:username/sliderCaptcha': () => ok({ ...PUZZLE, captcha_id: `p${++puzzles}` }),
    'POST /users/ajax/users/:username/sliderCaptcha:verify': () => ok({ pass: `pass-${++passes}`, expires_at: 0 }),
  });
}

async function submit(username: string, password: string) {
  await screen.findByLabelText('Account');
  fireEvent.change(document.getElementById('username')!, { target: { value: username } });
  fireEvent.change(document.getElementById('password')!, { target: { value: password } });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: /Sign in$/ })));
}

async function solveSlider() {
  const handle = screen.getByRole('slider', { name: 'Drag the slider to fit the piece into the gap' });
  await waitFor(() => expect(handle.getAttribute('aria-disabled')).toBeNull());
  for (let i = 0; i < 3; i++) fireEvent.keyDown(handle, { key: 'ArrowRight', shiftKey: true });
  await act(async () => fireEvent.keyDown(handle, { key: 'Enter' }));
  await waitFor(() => expect(screen.getByTestId('slider-captcha-message').textContent).toBe('Verified'));
}

describe('login page', () => {
  it('after a refused password without need_captcha shows the message and no slider', async () => {
    const backend = backendFor(false);
    await renderWithCore(<LoginPage />, { backend, user: null, route: '/users/login' });
    await submit('ann', 'wrong');
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Account or password incorrect');
    await waitFor(() => expect(backend.callsTo('GET /users/ajax/users/:username/check')).toHaveLength(1));
    expect(screen.queryByRole('slider')).toBeNull();
  });

  it('shows the slider inline when the service asks; the pass goes with the next sign-in only', async () => {
    const backend = backendFor(true);
    await renderWithCore(<LoginPage />, { backend, user: null, route: '/users/login' });
    await submit('ann', 'wrong');
    await screen.findByRole('slider');
    expect(backend.callsTo('POST /users/ajax/users/:username/sliderCaptcha')[0].body).toEqual({ scene: 'login' });
    // The slider sits above the submit button.
    const slider = screen.getByTestId('slider-captcha');
    const button = screen.getByRole('button', { name: /Sign in$/ });
    expect(slider.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    await submit('ann', 'wrong');
    expect(screen.getByRole('alert').textContent).toContain('Please complete the slider verification');
    expect(backend.callsTo('POST /users/ajax/login')).toHaveLength(1);

    await solveSlider();
    await submit('ann', 'wrong');
    expect(backend.callsTo('POST /users/ajax/login')[1].body).toMatchObject({ captcha_pass: 'pass-1' });
    // Spent: a fresh puzzle for the next try.
    await waitFor(() => expect(backend.callsTo('POST /users/ajax/users/:username/sliderCaptcha')).toHaveLength(2));
    await solveSlider();
    await submit('ann', 'Right@pass1');
    expect(backend.callsTo('POST /users/ajax/login')[2].body).toMatchObject({ captcha_pass: 'pass-2' });
    // The flagged account goes on to the forced change, on the shared new-password form.
    expect(await screen.findByText('Change password')).toBeTruthy();
    expect(document.getElementById('confirm')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Change and continue' })).toBeTruthy();
  });
});

describe('login page: a session that must change its password', () => {
  it('stays on the sign-in page, whose sign-in leads to the forced change', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    try {
      const backend = backendFor(false);
      await renderWithCore(<LoginPage />, {
        backend,
        user: { ...TEST_USER, must_change_password: true },
        route: '/users/login?next=%2Fusers%2Fsettings%2Fprofile',
      });
      await submit('alice', 'Right@pass1');
      expect(await screen.findByText('Change password')).toBeTruthy();
      expect(assign).not.toHaveBeenCalled();
    } finally {
      assign.mockRestore();
    }
  });

  it('leaves at once for a session without a pending change', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    try {
      await renderWithCore(<LoginPage />, {
        backend: backendFor(false),
        route: '/users/login?next=%2Fusers%2Fsettings',
      });
      await waitFor(() => expect(assign).toHaveBeenCalledWith('/users/settings'));
    } finally {
      assign.mockRestore();
    }
  });
});

const LOGIN = 'POST /users/ajax/login';
const PENDING = '/users/ajax/login/pending-bind';

/** The page config the service renders into the page, with the sign-in methods it offers. */
function servePageConfig(signIn?: SignInMethods) {
  const el = document.createElement('script');
  el.id = PAGE_CONFIG_ELEMENT_ID;
  el.type = 'application/json';
  el.textContent = JSON.stringify({ appId: 'account', orgId: '', env: 'vpc', host: '', organizationId: '', signIn });
  document.head.append(el);
}

/** The sign-in page with the given methods; sign-ins answer the forced change (the page stays). */
async function openLogin(
  signIn: SignInMethods | undefined,
  options: { route?: string; routes?: FakeRoutes; locale?: 'zh_CN' | 'en_US'; pageData?: Record<string, unknown> } = {},
) {
  servePageConfig(signIn);
  const backend = fakeBackend({
    [LOGIN]: ok({ user: TEST_USER, must_change_password: true, csrf_token: 'csrf-1' }),
    'GET /users/ajax/users/:username/check': ok({ locked: false, need_captcha: false }),
    ...options.routes,
  });
  const view = await renderWithCore(<LoginPage />, {
    backend,
    user: null,
    route: options.route ?? '/users/login',
    locale: options.locale,
    pageData: options.pageData,
  });
  return { ...view, backend };
}

/** Fills and sends the form whose fields carry `prefix` (`ldap_`, `ad_`; '' for the password form). */
async function submitForm(prefix: string, username: string, password: string) {
  fireEvent.change(document.getElementById(`${prefix}username`)!, { target: { value: username } });
  fireEvent.change(document.getElementById(`${prefix}password`)!, { target: { value: password } });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: /Sign in$/ })));
}

async function openTab(name: string) {
  await act(async () => fireEvent.click(screen.getByRole('tab', { name })));
}

describe('login page: directory tabs', () => {
  it('shows no tabs when the instance offers only account and password', async () => {
    await openLogin({ directories: [], oauth: [] });
    expect(await screen.findByText('Sign in with account and password')).toBeTruthy();
    expect(screen.queryByRole('tab')).toBeNull();
    expect(screen.queryByRole('tablist')).toBeNull();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toBeTruthy();
  });

  it('shows a tab per enabled directory; a directory sign-in sends its method and the page’s organisation', async () => {
    // Refused every time, so the form stays for the next method.
    const { backend } = await openLogin(
      { directories: ['ldap', 'ad'], oauth: [] },
      { route: '/users/login?org=o9', routes: { [LOGIN]: serviceError(401, 'AccountOrPasswordIncorrect') } },
    );
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Account and password', 'LDAP', 'Windows AD']);
    expect(tabs[0].getAttribute('aria-selected')).toBe('true');
    expect(screen.getByLabelText('Account')).toBeTruthy();

    await openTab('LDAP');
    expect(screen.getByRole('tab', { name: 'LDAP' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByLabelText('LDAP account')).toBeTruthy();
    // The directory owns the password: no reset link, a pointer to its administrator.
    expect(screen.queryByRole('link', { name: 'Forgot password?' })).toBeNull();
    expect(screen.getByText('Forgot your password? Contact your directory administrator.')).toBeTruthy();
    await submitForm('ldap_', ' ann ', 'secret');
    expect(backend.callsTo(LOGIN)[0].body).toEqual({
      username: 'ann',
      password: 'secret',
      method: 'ldap',
      org_id: 'o9',
    });

    await openTab('Windows AD');
    expect(screen.getByLabelText('Windows AD account (sAMAccountName or user@domain)')).toBeTruthy();
    await submitForm('ad_', 'ann@corp.example', 'secret');
    expect(backend.callsTo(LOGIN)[1].body).toMatchObject({ method: 'ad', username: 'ann@corp.example' });

    await openTab('Account and password');
    await submitForm('', 'ann', 'own');
    expect(backend.callsTo(LOGIN)[2].body).toEqual({ username: 'ann', password: 'own' });
  });

  it('labels the tabs in Chinese', async () => {
    await openLogin({ directories: ['ad'], oauth: [] }, { locale: 'zh_CN' });
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['账号密码', 'Windows AD']);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('登录');
  });

  it.each([
    [503, 'DirectoryUnavailable', 'The directory cannot be reached, please try again later'],
    [400, 'DirectoryNotEnabled', 'Sign-in through this directory is not enabled'],
    [409, 'DirectoryAccountConflict', 'An account with this name already exists and is not linked to the directory.'],
  ])('explains a directory refusal %i %s', async (status, code, text) => {
    const { backend } = await openLogin(
      { directories: ['ldap'], oauth: [] },
      { routes: { [LOGIN]: serviceError(status, code, 'from the service') } },
    );
    await screen.findAllByRole('tab');
    await openTab('LDAP');
    await submitForm('ldap_', 'ann', 'secret');
    expect((await screen.findByRole('alert')).textContent).toContain(text);
    // A directory that is down is a server error: the central notice (with its requestId) shows as well.
    expect(backend.notices).toHaveLength(status >= 500 ? 1 : 0);
    // Another method's failure does not stay on screen.
    await openTab('Account and password');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('login page: other sign-in methods', () => {
  it('links each enabled provider to its sign-in start, carrying the page’s next', async () => {
    await openLogin(
      { directories: [], oauth: ['dingtalk', 'wecom'] },
      { route: '/users/login?next=%2Fusers%2Fsettings%2Fssh' },
    );
    expect(await screen.findByText('Other sign-in methods')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'DingTalk' }).getAttribute('href')).toBe(
      '/login/oauth/dingtalk?next=%2Fusers%2Fsettings%2Fssh',
    );
    expect(screen.getByRole('link', { name: 'WeCom' }).getAttribute('href')).toBe(
      '/login/oauth/wecom?next=%2Fusers%2Fsettings%2Fssh',
    );
    expect(screen.queryByRole('link', { name: 'Lark' })).toBeNull();
    expect(screen.queryByTestId('cloud-provider')).toBeNull();
  });

  it('names the providers in Chinese; without next the links carry none', async () => {
    await openLogin({ directories: ['ldap'], oauth: ['dingtalk', 'lark', 'wecom'] }, { locale: 'zh_CN' });
    expect(await screen.findByText('其他登录方式')).toBeTruthy();
    const links = ['钉钉', '飞书', '企业微信'].map((name) => screen.getByRole('link', { name }).getAttribute('href'));
    expect(links).toEqual(['/login/oauth/dingtalk', '/login/oauth/lark', '/login/oauth/wecom']);
  });

  it('shows nothing of the kind without providers; the edition’s cloud-provider link when it has one', async () => {
    const view = await openLogin(undefined);
    await screen.findByText('Sign in with account and password');
    expect(screen.queryByText('Other sign-in methods')).toBeNull();
    view.unmount();
    document.getElementById(PAGE_CONFIG_ELEMENT_ID)?.remove();

    const before = edition.signIn;
    edition.signIn = { cloudProviderUrl: 'https://account.example.com/login' };
    try {
      await openLogin({ directories: [], oauth: [] });
      const link = await screen.findByRole('link', { name: 'Sign in with the cloud provider account' });
      expect(link.getAttribute('href')).toBe('https://account.example.com/login');
      expect(screen.getByText('Other sign-in methods')).toBeTruthy();
    } finally {
      edition.signIn = before;
    }
  });
});

describe('login page: binding a third-party account', () => {
  const WAITING = ok({ provider: 'dingtalk', open_id: 'ding-1', name: 'Ann Lee' });

  it('asks for a waiting account only when sent to bind', async () => {
    const { backend } = await openLogin(undefined, { routes: { [`GET ${PENDING}`]: WAITING } });
    await screen.findByText('Sign in with account and password');
    expect(backend.callsTo(`GET ${PENDING}`)).toHaveLength(0);
    expect(screen.queryByTestId('pending-bind')).toBeNull();
  });

  it('shows the waiting account; the password sign-in binds it', async () => {
    const { backend } = await openLogin(undefined, {
      route: '/users/login?bind=1',
      routes: { [`GET ${PENDING}`]: WAITING },
    });
    const banner = await screen.findByTestId('pending-bind');
    expect(banner.textContent).toContain('Sign in to link your DingTalk account Ann Lee');
    await submitForm('', 'ann', 'own');
    expect(backend.callsTo(LOGIN)[0].body).toEqual({ username: 'ann', password: 'own', bind_pending: true });
  });

  it('shows the waiting account the page brought at once, without asking; only when sent to bind', async () => {
    const pageData = { login: { pendingBind: { provider: 'lark', open_id: 'ou-1', name: 'Ann Lee' } } };
    const routes = { [`GET ${PENDING}`]: WAITING };
    const { backend } = await openLogin(undefined, { route: '/users/login?bind=1', routes, pageData });
    expect(screen.getByTestId('pending-bind').textContent).toContain('Ann Lee');
    await submitForm('', 'ann', 'own');
    expect(backend.callsTo(LOGIN)[0].body).toEqual({ username: 'ann', password: 'own', bind_pending: true });
    expect(backend.callsTo(`GET ${PENDING}`)).toHaveLength(0);
    cleanup();
    await openLogin(undefined, { routes, pageData });
    await screen.findByText('Sign in with account and password');
    expect(screen.queryByTestId('pending-bind')).toBeNull();
  });

  it('says so in Chinese, and a nameless account without a name', async () => {
    await openLogin(undefined, {
      route: '/users/login?bind=1',
      locale: 'zh_CN',
      routes: { [`GET ${PENDING}`]: ok({ provider: 'wecom', open_id: 'w-1', name: '' }) },
    });
    expect((await screen.findByTestId('pending-bind')).textContent).toContain('登录后将绑定您的企业微信账号');
    expect(screen.getByRole('button', { name: '取消绑定' })).toBeTruthy();
  });

  it('cancelling forgets it at the service; the sign-in then binds nothing', async () => {
    const { backend } = await openLogin(undefined, {
      route: '/users/login?bind=1',
      routes: { [`GET ${PENDING}`]: WAITING, [`DELETE ${PENDING}`]: ok({ success: true }) },
    });
    await screen.findByTestId('pending-bind');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Cancel linking' })));
    await waitFor(() => expect(screen.queryByTestId('pending-bind')).toBeNull());
    const del = backend.callsTo(`DELETE ${PENDING}`);
    expect(del).toHaveLength(1);
    expect(del[0].headers['X-Requested-With']).toBe('XMLHttpRequest');
    await submitForm('', 'ann', 'own');
    expect(backend.callsTo(LOGIN)[0].body).toEqual({ username: 'ann', password: 'own' });
  });

  it('shows nothing when none waits (404); a directory sign-in never binds', async () => {
    const none = await openLogin(
      { directories: ['ldap'], oauth: [] },
      { route: '/users/login?bind=1', routes: { [`GET ${PENDING}`]: serviceError(404, 'PendingBindNotFound') } },
    );
    await waitFor(() => expect(none.backend.callsTo(`GET ${PENDING}`)).toHaveLength(1));
    expect(screen.queryByTestId('pending-bind')).toBeNull();
    expect(none.backend.notices).toHaveLength(0);
    none.unmount();
    document.getElementById(PAGE_CONFIG_ELEMENT_ID)?.remove();

    const { backend } = await openLogin(
      { directories: ['ldap'], oauth: [] },
      { route: '/users/login?bind=1', routes: { [`GET ${PENDING}`]: WAITING } },
    );
    await screen.findByTestId('pending-bind');
    await openTab('LDAP');
    expect(screen.queryByTestId('pending-bind')).toBeNull();
    await submitForm('ldap_', 'ann', 'secret');
    expect(backend.callsTo(LOGIN)[0].body).toEqual({ username: 'ann', password: 'secret', method: 'ldap' });
  });
});
