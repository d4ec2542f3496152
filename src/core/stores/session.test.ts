import { describe, expect, it } from 'vitest';
import { fakeBackend, ok, serviceError, type FakeRoutes } from '../../../tests/kit/fake-backend';
import { TEST_USER } from '../../../tests/kit/web';
import { SessionStore } from './SessionStore';

const APPS = 'POST /uiless/api/apps:search';
const ORG = 'GET /uiless/api/organizations/:id';

function session(routes: FakeRoutes, tenant = 'page-org') {
  const backend = fakeBackend(
    {
      'GET /individual/proxy/me': ok(TEST_USER),
      [ORG]: (r) => ok({ id: r.params.id, name: `Org ${r.params.id}`, logo: null }),
      ...routes,
    },
    { tenantId: tenant },
  );
  return { backend, store: new SessionStore(backend.client, 'en_US') };
}

describe('SessionStore: the organisation the user works in', () => {
  it("loads the user, the organisation's apps and its name, sending the user's organisation as x-tenant-id", async () => {
    const { backend, store } = session({ [APPS]: ok({ results: [{ identity: 'codeup', id: 'a1', name: 'Codeup' }] }) });
    await store.load();
    expect(store).toMatchObject({ loading: false, failed: false, organizationNotice: null, installedApps: ['codeup'] });
    expect(store.organization).toEqual({ id: 'o1', name: 'Org o1', logo: null });
    expect(store.access.codeup).toBe(true);
    expect(backend.callsTo(APPS)[0].headers['x-tenant-id']).toBe('o1');
  });

  it('treats a user without an organisation as a state: no apps call, no failure, the no-organisation notice', async () => {
    const { backend, store } = session({ 'GET /individual/proxy/me': ok({ ...TEST_USER, organization_id: null }) });
    await store.load();
    expect(store).toMatchObject({ loading: false, failed: false, organizationNotice: 'no-org', installedApps: [] });
    expect(store.user?.id).toBe('u1');
    expect(store.organization).toBeNull();
    expect(backend.callsTo(APPS)).toHaveLength(0);
    // Later /uiless/ calls carry no stale organisation from the page.
    await backend.client.get('/uiless/api/anything');
    expect(backend.calls.at(-1)?.headers['x-tenant-id']).toBe('');
  });

  it.each([
    ['OrganizationIpRestricted', 'ip-restricted'],
    ['OrganizationLicenceExpired', 'license-expired'],
    ['OrganizationOrderExpired', 'order-expired'],
    ['OrganizationSecondFactorRequired', 'second-factor-required'],
    ['NoOrganizationPermission', 'org-unreachable'],
  ] as const)('turns a %s refusal of the apps call into the %s notice, not a failure', async (code, notice) => {
    const { store } = session({ [APPS]: serviceError(403, code), [ORG]: serviceError(403, code) });
    await store.load();
    expect(store).toMatchObject({ loading: false, failed: false, organizationNotice: notice, installedApps: [] });
    expect(store.user?.id).toBe('u1');
    expect(store.organization).toBeNull();
  });

  it('still offers a retry when the apps call fails for another reason (server, network)', async () => {
    const { store } = session({ [APPS]: serviceError(500, 'SystemError') });
    await store.load();
    expect(store).toMatchObject({ loading: false, failed: true, organizationNotice: null });
  });

  it('enters a new organisation at once: x-tenant-id, apps and name follow without a reload', async () => {
    let current = 'o1';
    const { backend, store } = session({
      'GET /individual/proxy/me': () => ok({ ...TEST_USER, organization_id: current }),
      [APPS]: (r) =>
        ok({ results: r.headers['x-tenant-id'] === 'o2' ? [{ identity: 'packages', id: 'p', name: 'P' }] : [] }),
    });
    await store.load();
    expect(store.installedApps).toEqual([]);
    current = 'o2';
    await store.enterOrganization('o2');
    expect(store.user?.organization_id).toBe('o2');
    expect(store.organization?.name).toBe('Org o2');
    expect(store.installedApps).toEqual(['packages']);
    expect(backend.callsTo(APPS).map((c) => c.headers['x-tenant-id'])).toEqual(['o1', 'o2']);
  });
});

describe('SessionStore: the state that came with the page', () => {
  const boot = {
    locale: 'en_US' as const,
    me: TEST_USER,
    organization: { id: 'o1', name: 'Org o1', logo: null },
    apps: [{ identity: 'codeup', id: 'a1', name: 'Codeup' }],
    organizationError: null,
  };

  it('renders the user, organisation and apps at once, and its first load asks the service nothing', async () => {
    const backend = fakeBackend({});
    const store = new SessionStore(backend.client, 'en_US', boot);
    expect(store).toMatchObject({ loading: false, failed: false, signedOut: false, installedApps: ['codeup'] });
    expect(store.organization?.name).toBe('Org o1');
    await store.load();
    expect(backend.calls).toHaveLength(0);
    // Later /uiless/ calls carry the page's organisation; a later load (a switch) asks again.
    await backend.client.get('/uiless/api/anything');
    expect(backend.calls.at(-1)?.headers['x-tenant-id']).toBe('o1');
  });

  it('takes a policy refusal as its notice, and an unknown refusal as a failure the next load retries', async () => {
    const restricted = new SessionStore(fakeBackend({}).client, 'en_US', {
      ...boot,
      organization: null,
      apps: null,
      organizationError: 'OrganizationIpRestricted',
    });
    expect(restricted).toMatchObject({ failed: false, organizationNotice: 'ip-restricted', installedApps: [] });
    // A missing second factor: the page names the organisation that asks, for the notice.
    const enrol = new SessionStore(fakeBackend({}).client, 'en_US', {
      ...boot,
      organization: null,
      apps: null,
      organizationError: 'OrganizationSecondFactorRequired',
      refusedOrganizationName: 'Org o1',
    });
    expect(enrol).toMatchObject({ organizationNotice: 'second-factor-required', organizationNoticeName: 'Org o1' });
    expect(restricted.organizationNoticeName).toBeNull();
    const backend = fakeBackend({
      'GET /individual/proxy/me': ok(TEST_USER),
      [ORG]: ok({ id: 'o1', name: 'Org o1', logo: null }),
      [APPS]: ok({ results: [] }),
    });
    const odd = new SessionStore(backend.client, 'en_US', { ...boot, apps: null, organizationError: 'Whatever' });
    expect(odd.failed).toBe(true);
    await odd.load();
    expect(backend.callsTo('GET /individual/proxy/me')).toHaveLength(1);
    expect(odd.failed).toBe(false);
  });

  it('a page served to nobody signed in starts signed out without a call', async () => {
    const backend = fakeBackend({});
    const store = new SessionStore(backend.client, 'zh_CN', { locale: 'zh_CN' });
    expect(store).toMatchObject({ loading: false, signedOut: true, user: null });
    await store.load();
    expect(backend.calls).toHaveLength(0);
  });
});

describe('SessionStore: the colour scheme kept on the account', () => {
  const boot = { locale: 'en_US' as const, organization: null, apps: [], organizationError: null };

  it("takes the account's scheme from the page, and `system` on a page served to nobody signed in", () => {
    const dark = new SessionStore(fakeBackend({}).client, 'en_US', {
      ...boot,
      me: { ...TEST_USER, colorScheme: 'dark' },
    });
    expect(dark.colorScheme).toBe('dark');
    expect(new SessionStore(fakeBackend({}).client, 'en_US', { locale: 'en_US' }).colorScheme).toBe('system');
    // A page from a service that does not know the preference yet: the default, not undefined.
    const older = { ...TEST_USER, colorScheme: undefined } as unknown as typeof TEST_USER;
    expect(new SessionStore(fakeBackend({}).client, 'en_US', { ...boot, me: older }).colorScheme).toBe('system');
  });

  it('follows `me` on a load, keeps it through a failed one and goes back to `system` on sign-out', async () => {
    let answer = ok({ ...TEST_USER, colorScheme: 'light' });
    const { store } = session({
      'GET /individual/proxy/me': () => answer,
      [APPS]: ok({ results: [] }),
    });
    expect(store.colorScheme).toBe('system');
    await store.load();
    expect(store.colorScheme).toBe('light');
    answer = serviceError(500, 'SystemError');
    await store.load();
    expect(store).toMatchObject({ failed: true, colorScheme: 'light' });
    answer = serviceError(401, 'Unauthorized');
    await store.load();
    expect(store).toMatchObject({ signedOut: true, colorScheme: 'system' });
  });

  it('setColorScheme shows the saved scheme at once, on the store and on the user', () => {
    const store = new SessionStore(fakeBackend({}).client, 'en_US', { ...boot, me: { ...TEST_USER } });
    store.setColorScheme('dark');
    expect(store.colorScheme).toBe('dark');
    expect(store.user?.colorScheme).toBe('dark');
  });
});
