import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend, ok, serviceError, type FakeResponse, type FakeRoute } from '../../tests/kit/fake-backend';
import { renderWithCore } from '../../tests/kit/web';
import AppEntryPage from './pages/AppEntryPage';
import { edition } from '../../src/core/edition';
import { AppEntryStore } from './store';
import { switchOrgApi } from './api';
import { sessionRoutes, SWITCH_ROUTE } from './test-backend';

const ACCESS = 'GET /uiless/api/organizations/:id/apps/:appId';
const INFO = 'GET /uiless/apps/:id';
const ADMINS = 'GET /uiless/api/organizations/:id/appAdmins';
const SWITCH = SWITCH_ROUTE;

function backend(routes: Record<string, FakeRoute> = {}) {
  return fakeBackend({
    ...sessionRoutes(),
    [ACCESS]: ok({ pass: true }),
    [INFO]: (r) => ok({ id: 'app-1', key: r.params.id, name: 'Codeup', raw_url: '/codeup/' }),
    ...routes,
  });
}

function mount(b: ReturnType<typeof backend>, route = '/users/switch/o1/app-entry?app=codeup') {
  return renderWithCore(<AppEntryPage />, { backend: b, route, path: '/users/switch/:organizationId/app-entry' });
}

const verdict = async () => (await screen.findByTestId('entry-result')).getAttribute('data-entry');

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('application entry guard', () => {
  it('redirects to the raw_url when both calls pass, asking in the link’s organisation', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    const b = backend();
    await mount(b);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/codeup/'));
    expect(screen.getByText('Opening the application…')).toBeTruthy();
    expect(b.callsTo(ACCESS)).toMatchObject([{ path: '/uiless/api/organizations/o1/apps/codeup' }]);
    for (const call of [...b.callsTo(ACCESS), ...b.callsTo(INFO)]) expect(call.headers['x-tenant-id']).toBe('o1');
  });

  it('goes to / when the app has no address, or when the checker refuses it', async () => {
    for (const raw_url of [null, 'https://evil.example/', 'javascript:alert(1)']) {
      const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
      await mount(backend({ [INFO]: ok({ id: 'a', key: 'codeup', name: 'Codeup', raw_url }) }));
      await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
      cleanup();
      vi.restoreAllMocks();
    }
  });

  it('accepts an address on exactly this origin (the redirect rule), not on another scheme or port', async () => {
    const b = backend({
      [INFO]: ok({ id: 'a', key: 'codeup', name: 'Codeup', raw_url: 'https://devops.example.com/codeup/x' }),
    });
    const view = await mount(b, '/users/switch/o1/app-entry?app=codeup');
    cleanup();
    const store = new AppEntryStore(switchOrgApi(b.client), view.root);
    await store.check('o1', 'codeup', 'https://devops.example.com');
    expect(store.state).toEqual({ kind: 'redirect', url: 'https://devops.example.com/codeup/x' });
    for (const origin of [
      'https://other.example.com',
      'http://devops.example.com',
      'https://devops.example.com:8443',
    ]) {
      await store.check('o1', 'codeup', origin);
      expect(store.state).toEqual({ kind: 'redirect', url: '/' });
    }
  });

  it('accepts the exact origins of the edition’s app addresses, not their subdomains, schemes or ports', async () => {
    const codeup = edition.appSwitcher.find((a) => a.key === 'codeup')!;
    const listed = codeup.url;
    codeup.url = 'https://codeup.example.com/';
    try {
      let raw_url = '/codeup/';
      const b = backend({ [INFO]: () => ok({ id: 'a', key: 'codeup', name: 'Codeup', raw_url }) });
      const view = await mount(b);
      cleanup();
      const store = new AppEntryStore(switchOrgApi(b.client), view.root);
      const verdicts: Record<string, string> = {};
      for (const url of [
        'https://codeup.example.com/repo/中',
        'http://codeup.example.com/',
        'https://codeup.example.com:8443/',
        'https://api.codeup.example.com/',
      ]) {
        raw_url = url;
        await store.check('o1', 'codeup', 'https://devops.example.com');
        verdicts[url] = store.state.kind === 'redirect' ? store.state.url : store.state.kind;
      }
      expect(verdicts).toEqual({
        'https://codeup.example.com/repo/中': 'https://codeup.example.com/repo/%E4%B8%AD',
        'http://codeup.example.com/': '/',
        'https://codeup.example.com:8443/': '/',
        'https://api.codeup.example.com/': '/',
      });
    } finally {
      codeup.url = listed;
    }
  });

  it('lists the app admins to contact when the user may not use the app (names through the members lookup)', async () => {
    const b = backend({
      [ACCESS]: ok({ pass: false, reason: 'noPermission' }),
      [ADMINS]: ok({
        admins: [
          { user_id: 'u7', name: 'Grace', app_key: 'codeup' },
          { user_id: 'u8', name: '', app_key: 'codeup' },
          { user_id: 'u9', name: 'Other', app_key: 'packages' },
        ],
      }),
      // vpc is a private deployment: members are looked up in the organisation.
      'GET /api/organizations/:orgId/members/list': (r) =>
        ok({
          members: r.query.userIds.split(',').map((id) => ({ id, name: id === 'u8' ? 'Linus' : 'x', avatar: null })),
        }),
    });
    await mount(b);
    expect(await verdict()).toBe('noPermission');
    expect(screen.getByText('No permission')).toBeTruthy();
    expect(screen.getByText('You do not have permission to use Codeup in this organization.')).toBeTruthy();
    const admins = screen.getByTestId('entry-admins');
    expect(admins.textContent).toContain('Contact an administrator:');
    expect([...admins.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['Grace', 'Linus']);
    expect(b.callsTo('GET /api/organizations/o1/members/list')[0].query).toEqual({ userIds: 'u7,u8' });
  });

  it('asks the organisation administrators when the app names no admin', async () => {
    await mount(backend({ [ACCESS]: ok({ pass: false, reason: 'noPermission' }), [ADMINS]: ok({ admins: [] }) }));
    expect(await verdict()).toBe('noPermission');
    expect(screen.getByText('Contact an organization administrator to get access.')).toBeTruthy();
  });

  it.each<[string, Partial<Record<string, FakeResponse>>, string, string]>([
    [
      'notInstalled',
      { [ACCESS]: ok({ pass: false, reason: 'notInstalled' }) },
      'Application not installed',
      'Codeup is not installed',
    ],
    ['notInstalled', { [INFO]: serviceError(404, 'AppNotFound') }, 'Application not installed', 'is not installed'],
    [
      'noOrgPermission',
      { [ACCESS]: serviceError(403, 'NoOrganizationPermission') },
      'No permission for organization',
      'You are not a member',
    ],
    ['unreachable', { [ACCESS]: serviceError(404, 'NotFound') }, 'Organization unreachable', 'cannot be reached'],
    ['unreachable', { [INFO]: serviceError(502, 'BadGateway') }, 'Organization unreachable', 'cannot be reached'],
    [
      'ipRestricted',
      { [ACCESS]: serviceError(403, 'OrganizationIpRestricted') },
      'IP access restricted',
      'IP access is restricted; contact the administrator',
    ],
    [
      'licenceExpired',
      { [ACCESS]: serviceError(403, 'OrganizationLicenceExpired') },
      'License expired',
      "The organization's license has expired",
    ],
    [
      'orderExpired',
      { [INFO]: serviceError(403, 'OrganizationOrderExpired') },
      'Standard edition order expired',
      'until it is renewed',
    ],
    [
      'secondFactorRequired',
      { [ACCESS]: serviceError(403, 'OrganizationSecondFactorRequired') },
      'Two-factor authentication required',
      'This organization requires two-factor authentication',
    ],
  ])('says why it stopped: %s', async (kind, routes, title, text) => {
    await mount(backend(routes as Record<string, FakeRoute>));
    expect(await verdict()).toBe(kind);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(title);
    expect(screen.getByTestId('entry-result').textContent).toContain(text);
    expect(screen.getByRole('link', { name: 'Choose organization' }).getAttribute('href')).toBe(
      `/users/switch/organization?nextUrl=${encodeURIComponent('/users/switch/o1/app-entry?app=codeup')}`,
    ); // A missing second factor is the user's to lift: the security page comes first.
    const enrol = screen.queryByRole('link', { name: 'Set up two-factor authentication' });
    expect(enrol?.getAttribute('href') ?? null).toBe(
      kind === 'secondFactorRequired' ? '/users/settings/security' : null,
    );
  });

  it('treats a network failure as an unreachable organisation and checks again on retry', async () => {
    let down = true;
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    await mount(
      backend({
        [ACCESS]: () => {
          if (down) throw new TypeError('network down');
          return ok({ pass: true });
        },
      }),
    );
    expect(await verdict()).toBe('unreachable');
    down = false;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Try again' })));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/codeup/'));
  });

  it('says a link without an app is invalid', async () => {
    const b = backend();
    await mount(b, '/users/switch/o1/app-entry');
    expect(await verdict()).toBe('badParam');
    expect(screen.getByText('Invalid link')).toBeTruthy();
    expect(b.callsTo(ACCESS)).toHaveLength(0);
  });

  it('says the link belongs to another organisation, and switching there lets the guard go on', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    const b = backend();
    const view = await mount(b, '/users/switch/o2/app-entry?app=codeup');
    expect(await verdict()).toBe('mismatch');
    expect(screen.getByText('Organization mismatch')).toBeTruthy();
    expect(screen.getByText(/This link belongs to another organization/)).toBeTruthy();
    expect(b.callsTo(ACCESS)).toHaveLength(0);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Switch to that organization' })));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/codeup/'));
    expect(b.callsTo(SWITCH)).toMatchObject([{ body: { organization_id: 'o2' }, headers: { 'x-tenant-id': 'o2' } }]);
    expect(view.root.session.user?.organization_id).toBe('o2');
    expect(b.callsTo(ACCESS)).toMatchObject([{ path: '/uiless/api/organizations/o2/apps/codeup' }]);
  });

  it('says why the switch to the link’s organisation was refused', async () => {
    await mount(
      backend({ [SWITCH]: serviceError(403, 'NoOrganizationPermission') }),
      '/users/switch/o2/app-entry?app=codeup',
    );
    expect(await verdict()).toBe('mismatch');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Switch to that organization' })));
    expect((await screen.findByRole('alert')).textContent).toContain('You have no permission for this organization.');
    expect(await verdict()).toBe('mismatch');
  });
});
