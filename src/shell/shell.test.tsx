import { act, cleanup, render, screen } from '@testing-library/react';
import { runInAction } from 'mobx';
import { IntlProvider } from 'react-intl';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { renderWithCore } from '../../tests/kit/web';
import { computeAccess } from '../core/access';
import { edition } from '../core/edition';
import { createRegistry, definePlugin } from '../core/plugin';
import { ErrorBoundary } from './errors/ErrorBoundary';
import { ERROR_PAGES, ErrorPage, errorPageFor } from './errors/ErrorPage';
import en from './messages/en_US.json';
import zh from './messages/zh_CN.json';
import { RouteGuard } from './RouteGuard';
import SettingsShell, { acceptsSubPath, permittedSections } from './SettingsShell';
import { appTileHref } from './AppSwitcher';
import { logoutUrl, switchOrganizationUrl, TopBar } from './TopBar';
import { clampSiderWidth, SIDER_MIN_WIDTH } from './useSiderState';

const page = () => Promise.resolve({ default: () => null });
const registry = createRegistry(
  ['profile', 'personalAccessToken', 'ssh', 'packagesCredential', 'third-party', 'identity-provider'].map((key) =>
    definePlugin({
      id: `p-${key}`,
      settingsSections: [{ key, messageId: `p-${key}.t`, load: page }],
      messages: { zh_CN: {}, en_US: {} },
    }),
  ),
);
const user = { id: 'u1' };

describe('settings menu (vpc edition)', () => {
  it('shows SSH only with code hosting and the credential only with packages, in manifest order', () => {
    const keys = (apps: string[]) =>
      permittedSections(registry, computeAccess({ user, installedApps: apps, edition })).map((s) => s.key);
    expect(keys([])).toEqual(['profile', 'personalAccessToken', 'third-party']);
    expect(keys(['codeup'])).toEqual(['profile', 'personalAccessToken', 'ssh', 'third-party']);
    expect(keys(['codeup', 'packages'])).toEqual([
      'profile',
      'personalAccessToken',
      'ssh',
      'packagesCredential',
      'third-party',
    ]);
  });

  it('never lists identity-provider: it is in no default menu', () => {
    const all = permittedSections(registry, computeAccess({ user, installedApps: ['codeup', 'packages'], edition }));
    expect(all.map((s) => s.key)).not.toContain('identity-provider');
  });
});

describe('plugin contract: section permission, sub-paths, route auth', () => {
  it("applies a section's own permission on top of the menu rule", () => {
    const guarded = createRegistry([
      definePlugin({
        id: 'p',
        settingsSections: [
          { key: 'profile', messageId: 'p.t', load: page },
          { key: 'personalAccessToken', messageId: 'p.u', load: page, permission: { app: 'packages' } },
          { key: 'third-party', messageId: 'p.v', load: page, permission: false },
        ],
        messages: { zh_CN: {}, en_US: {} },
      }),
    ]);
    const keys = (apps: string[]) =>
      permittedSections(guarded, computeAccess({ user, installedApps: apps, edition })).map((s) => s.key);
    expect(keys([])).toEqual(['profile']);
    expect(keys(['packages'])).toEqual(['profile', 'personalAccessToken']);
  });

  it('accepts only the declared sub-paths of a section', () => {
    const tokens = { subPaths: ['create'] };
    expect(acceptsSubPath(tokens, undefined)).toBe(true);
    expect(acceptsSubPath(tokens, '')).toBe(true);
    expect(acceptsSubPath(tokens, 'create')).toBe(true);
    expect(acceptsSubPath(tokens, 'create/')).toBe(true);
    expect(acceptsSubPath(tokens, 'edit')).toBe(false);
    expect(acceptsSubPath(tokens, 'create/more')).toBe(false);
    expect(acceptsSubPath({}, 'create')).toBe(false);
  });

  it('sends an undeclared sub-path back to its section and keeps a declared one', async () => {
    const shell = createRegistry([
      definePlugin({
        id: 'p',
        settingsSections: [
          {
            key: 'personalAccessToken',
            messageId: 'shell.settings.title',
            subPaths: ['create'],
            load: () => Promise.resolve({ default: () => <p>tokens page</p> }),
          },
        ],
        messages: { zh_CN: {}, en_US: {} },
      }),
    ]);
    const ui = <SettingsShell registry={shell} />;
    const path = '/users/settings/:sidebarKey/*';
    const declared = await renderWithCore(ui, { path, route: '/users/settings/personalAccessToken/create' });
    expect(await screen.findByText('tokens page')).toBeTruthy();
    expect(declared.location()).toBe('/users/settings/personalAccessToken/create');
    cleanup();
    const other = await renderWithCore(ui, { path, route: '/users/settings/personalAccessToken/delete-all' });
    expect(await screen.findByText('tokens page')).toBeTruthy();
    expect(other.location()).toBe('/users/settings/personalAccessToken');
  });

  it("checks a route's auth against the session once it is known", async () => {
    const view = await renderWithCore(<RouteGuard auth={['codeup']}>app entry</RouteGuard>, { installedApps: [] });
    expect(screen.getByText('No permission')).toBeTruthy();
    cleanup();
    await renderWithCore(<RouteGuard auth={['codeup']}>app entry</RouteGuard>, { installedApps: ['codeup'] });
    expect(screen.getByText('app entry')).toBeTruthy();
    cleanup();
    await renderWithCore(<RouteGuard>open page</RouteGuard>, { user: null });
    expect(screen.getByText('open page')).toBeTruthy();
    // While the session loads, a guarded page shows nothing rather than a wrong 'No permission'.
    const loading = await renderWithCore(<RouteGuard auth={['codeup']}>app entry</RouteGuard>);
    await act(async () => runInAction(() => (loading.root.session.loading = true)));
    expect(loading.queryByText('No permission')).toBeNull();
    expect(view.root.session.access.codeup).toBe(false);
  });
});

describe('no organisation is a state: the shell explains it and personal sections keep working', () => {
  const shell = createRegistry(
    ['profile', 'personalAccessToken', 'ssh', 'packagesCredential', 'third-party'].map((key) =>
      definePlugin({
        id: `q-${key}`,
        settingsSections: [
          { key, messageId: 'shell.settings.title', load: () => Promise.resolve({ default: () => <p>{key} page</p> }) },
        ],
        messages: { zh_CN: {}, en_US: {} },
      }),
    ),
  );
  const path = '/users/settings/:sidebarKey/*';

  it('shows a user without an organisation the sections that need no app, and the chooser instead of an error', async () => {
    const view = await renderWithCore(<SettingsShell registry={shell} />, {
      path,
      route: '/users/settings/profile',
      user: { organization_id: null },
    });
    await act(async () => runInAction(() => (view.root.session.organizationNotice = 'no-org')));
    expect(await screen.findByText('profile page')).toBeTruthy();
    const menu = [...view.container.querySelectorAll('[data-menu-key]')].map((e) => e.getAttribute('data-menu-key'));
    expect(menu).toEqual(['profile', 'personalAccessToken', 'third-party']);
    const notice = screen.getByTestId('org-notice');
    expect(notice.textContent).toContain('Not in any organization');
    expect(notice.querySelector('a')?.getAttribute('href')).toMatch(/^\/users\/switch\/organization\?nextUrl=/);
    expect(screen.queryByText('Something went wrong, please try again')).toBeNull();
  });

  it.each([
    ['ip-restricted', 'IP access is restricted; contact the administrator to change security settings in the console.'],
    ['license-expired', "The organization's license has expired. Contact the administrator to renew it."],
    ['order-expired', 'The standard edition order has expired'],
  ] as const)('shows the %s notice above the personal sections', async (kind, text) => {
    const view = await renderWithCore(<SettingsShell registry={shell} />, {
      path,
      route: '/users/settings/personalAccessToken',
    });
    await act(async () => runInAction(() => (view.root.session.organizationNotice = kind)));
    expect(await screen.findByText('personalAccessToken page')).toBeTruthy();
    expect(screen.getByTestId('org-notice').getAttribute('data-notice')).toBe(kind);
    expect(screen.getByTestId('org-notice').textContent).toContain(text);
  });

  it('says which organisation requires a second factor and leads to the security page, the chooser beside', async () => {
    const view = await renderWithCore(<SettingsShell registry={shell} />, {
      path,
      route: '/users/settings/profile',
    });
    await act(async () =>
      runInAction(() => {
        view.root.session.organizationNotice = 'second-factor-required';
        view.root.session.organizationNoticeName = 'Acme';
      }),
    );
    expect(await screen.findByText('profile page')).toBeTruthy();
    const notice = screen.getByTestId('org-notice');
    expect(notice.getAttribute('data-notice')).toBe('second-factor-required');
    expect(notice.textContent).toContain('Two-factor authentication required');
    expect(notice.textContent).toContain('Acme requires its members to use two-factor authentication.');
    expect(screen.getByTestId('org-notice-second-factor').getAttribute('href')).toBe('/users/settings/security');
    expect([...notice.querySelectorAll('a')].map((a) => a.getAttribute('href'))[1]).toMatch(
      /^\/users\/switch\/organization\?nextUrl=/,
    );
    // Without the name (a refusal met by a later call), the text says "this organization".
    await act(async () => runInAction(() => (view.root.session.organizationNoticeName = null)));
    expect(screen.getByTestId('org-notice').textContent).toContain('This organization requires its members');
  });

  it('offers no way to the security page on the security page itself (its section is the way)', async () => {
    const withSecurity = createRegistry([
      definePlugin({
        id: 'q-security',
        settingsSections: [
          { key: 'security', messageId: 'shell.settings.title', load: () => Promise.resolve({ default: () => <p /> }) },
        ],
        messages: { zh_CN: {}, en_US: {} },
      }),
    ]);
    const view = await renderWithCore(<SettingsShell registry={withSecurity} />, {
      path,
      route: '/users/settings/security',
    });
    await act(async () =>
      runInAction(() => {
        view.root.session.organizationNotice = 'second-factor-required';
        view.root.session.organizationNoticeName = 'Acme';
      }),
    );
    const notice = await screen.findByTestId('org-notice');
    expect(notice.textContent).toContain('Acme requires its members to use two-factor authentication.');
    expect(screen.queryByTestId('org-notice-second-factor')).toBeNull();
  });

  it('warns during the grace with the day the organisation starts refusing, and not once it has no deadline', async () => {
    const view = await renderWithCore(<SettingsShell registry={shell} />, {
      path,
      route: '/users/settings/profile',
    });
    const deadline = Date.UTC(2026, 11, 11, 9, 30);
    await act(async () =>
      runInAction(
        () =>
          (view.root.session.organization = { id: 'o1', name: 'Acme', logo: null, second_factor_deadline: deadline }),
      ),
    );
    const warning = await screen.findByTestId('org-second-factor-grace');
    expect(warning.textContent).toContain('Acme will require two-factor authentication from');
    expect(warning.querySelector('time')?.getAttribute('datetime')).toBe('2026-12-11T09:30:00.000Z');
    expect(warning.textContent).toMatch(/from 2026-12-1[01] \d\d:\d\d/);
    expect(warning.textContent).toContain('after that, Acme refuses you until you do');
    expect(screen.getByTestId('org-notice-second-factor').getAttribute('href')).toBe('/users/settings/security');
    expect(screen.queryByTestId('org-notice')).toBeNull();
    await act(async () => runInAction(() => (view.root.session.organization = { id: 'o1', name: 'Acme', logo: null })));
    expect(screen.queryByTestId('org-second-factor-grace')).toBeNull();
  });

  it('offers the chooser on the organisation error pages, and only there', async () => {
    const page = (type: string) =>
      render(
        <IntlProvider locale="en" messages={en}>
          <MemoryRouter initialEntries={[`/users/errors?type=${type}`]}>
            <ErrorPage />
          </MemoryRouter>
        </IntlProvider>,
      );
    page('no-org');
    expect(screen.getByText('Not in any organization')).toBeTruthy();
    expect(screen.getByTestId('error-switch-org').getAttribute('href')).toBe('/users/switch/organization');
    cleanup();
    page('404');
    expect(screen.queryByTestId('error-switch-org')).toBeNull();
    cleanup();
    // A missing second factor: setting one up comes first, another organisation second.
    page('second-factor-required');
    expect(screen.getByText('Two-factor authentication required')).toBeTruthy();
    expect(screen.getByTestId('error-second-factor').getAttribute('href')).toBe('/users/settings/security');
    expect(screen.getByTestId('error-switch-org')).toBeTruthy();
  });

  it('sends every app tile through the entry guard of the current organisation (the chooser without one)', () => {
    expect(appTileHref('codeup', 'o 1')).toBe('/users/switch/o%201/app-entry?app=codeup');
    expect(appTileHref('codeup', null)).toBe('/users/switch/organization');
  });

  it('names the current organisation in the header, as a way to change it', async () => {
    const view = await renderWithCore(<TopBar />);
    expect(screen.queryByTestId('current-org')).toBeNull();
    await act(async () => runInAction(() => (view.root.session.organization = { id: 'o1', name: 'Acme', logo: null })));
    const org = screen.getByTestId('current-org');
    expect(org.textContent).toBe('Acme');
    expect(org.getAttribute('href')).toMatch(/^\/users\/switch\/organization\?nextUrl=/);
  });
});

describe('shell rules', () => {
  it('clamps the dragged side bar to at least 200 px', () => {
    expect(SIDER_MIN_WIDTH).toBe(200);
    expect(clampSiderWidth(120)).toBe(200);
    expect(clampSiderWidth(260.4)).toBe(260);
  });

  it('sends organisation change and logout back to the current address', () => {
    const here = 'http://h/users/settings/ssh?x=1';
    expect(switchOrganizationUrl(here)).toBe(`/users/switch/organization?nextUrl=${encodeURIComponent(here)}`);
    expect(switchOrganizationUrl()).toBe('/users/switch/organization');
    expect(logoutUrl(here)).toBe(`/users/logout?next=${encodeURIComponent(here)}`);
  });

  it('maps error types to pages and unknown ones to 404', () => {
    expect(errorPageFor('ip-restricted')).toBe(ERROR_PAGES['ip-restricted']);
    expect(errorPageFor('constructor')).toBe(ERROR_PAGES['404']);
    expect(errorPageFor(null)).toBe(ERROR_PAGES['404']);
  });

  it('has every error page in both languages', () => {
    for (const p of Object.values(ERROR_PAGES)) {
      expect(zh[p.title as keyof typeof zh], p.title).toBeTruthy();
      expect(en[p.description as keyof typeof en], p.description).toBeTruthy();
    }
    render(
      <IntlProvider locale="en" messages={en}>
        <MemoryRouter initialEntries={['/users/errors?type=ip-restricted']}>
          <ErrorPage />
        </MemoryRouter>
      </IntlProvider>,
    );
    expect(screen.getByText(/IP access is restricted; contact the administrator/)).toBeTruthy();
  });

  it('switches to the fallback when rendering throws', () => {
    const Boom = () => {
      throw new Error('boom');
    };
    const spy = console.error;
    console.error = () => {};
    render(
      <IntlProvider locale="en" messages={en}>
        <ErrorBoundary>
          <Boom />
        </ErrorBoundary>
        <ErrorBoundary variant="page">
          <Boom />
        </ErrorBoundary>
      </IntlProvider>,
    );
    console.error = spy;
    expect(screen.getByText('Oops! Something went wrong.')).toBeTruthy();
    expect(screen.getByText('Sorry, something went wrong on this page')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeTruthy();
  });
});
