import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend, ok, serviceError, type FakeRoute } from '../../tests/kit/fake-backend';
import { renderWithCore } from '../../tests/kit/web';
import type { Organization } from './contract';
import { ORG_PAGE_SIZE_DEFAULT } from './limits';
import SwitchOrganizationPage from './pages/SwitchOrganizationPage';
import { sessionRoutes, SWITCH_ROUTE } from './test-backend';

const LIST = 'POST /individual/proxy/my/organizations';
const SWITCH = SWITCH_ROUTE;

const orgs = (from: number, to: number): Organization[] =>
  Array.from({ length: to - from }, (_, i) => ({ id: `o${from + i}`, name: `Org ${from + i}`, logo: null }));

/** A backend with `total` organisations (o0…), pages of the chooser's size, and the session calls a switch reloads. */
function backend(total: number, extra: Record<string, FakeRoute> = {}) {
  const all = orgs(0, total);
  return fakeBackend({
    ...sessionRoutes(),
    [LIST]: (r) => {
      const body = r.body as { user_id: string; pagination: { next_token: string | null; page_size: number } };
      const start = body.pagination.next_token ? Number(body.pagination.next_token) : 0;
      const end = start + body.pagination.page_size;
      return ok({ organizations: all.slice(start, end), pages: { next_token: end < total ? String(end) : null } });
    },
    ...extra,
  });
}

const mount = (b: ReturnType<typeof backend>, query = '') =>
  renderWithCore(<SwitchOrganizationPage />, {
    backend: b,
    route: `/users/switch/organization${query}`,
  });

const names = () => screen.queryAllByTestId('org-item').map((e) => e.getAttribute('data-org-id'));

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('organisation chooser', () => {
  it('loads the first page for the signed-in user, marks the current one, and appends the next page on "load more"', async () => {
    const b = backend(ORG_PAGE_SIZE_DEFAULT + 20);
    await mount(b);
    await waitFor(() => expect(names()).toHaveLength(ORG_PAGE_SIZE_DEFAULT));
    expect(b.callsTo(LIST)[0].body).toEqual({
      user_id: 'u1',
      pagination: { next_token: null, page_size: ORG_PAGE_SIZE_DEFAULT },
    });
    const current = screen.getAllByTestId('org-item').filter((e) => e.getAttribute('aria-current') === 'true');
    expect(current.map((e) => e.getAttribute('data-org-id'))).toEqual(['o1']);
    expect(within(current[0]).getByText('Current')).toBeTruthy();

    await act(async () => fireEvent.click(screen.getByTestId('org-load-more')));
    await waitFor(() => expect(names()).toHaveLength(ORG_PAGE_SIZE_DEFAULT + 20));
    expect(names().slice(0, 2)).toEqual(['o0', 'o1']);
    expect(names().at(-1)).toBe(`o${ORG_PAGE_SIZE_DEFAULT + 19}`);
    expect((b.callsTo(LIST)[1].body as { pagination: unknown }).pagination).toEqual({
      next_token: String(ORG_PAGE_SIZE_DEFAULT),
      page_size: ORG_PAGE_SIZE_DEFAULT,
    });
    // The last page is loaded: no more button.
    expect(screen.queryByTestId('org-load-more')).toBeNull();
  });

  it('filters the loaded organisations by name, and says when none matches', async () => {
    await mount(backend(12));
    await waitFor(() => expect(names()).toHaveLength(12));
    const filter = screen.getByLabelText('Filter organizations by name');
    fireEvent.change(filter, { target: { value: 'org 1' } });
    expect(names()).toEqual(['o1', 'o10', 'o11']);
    fireEvent.change(filter, { target: { value: 'nothing' } });
    expect(names()).toEqual([]);
    expect(screen.getByText('No loaded organization matches "nothing"')).toBeTruthy();
  });

  it('says so when the user has no organisation at all', async () => {
    await mount(backend(0));
    expect(await screen.findByText('You are not in any organization yet')).toBeTruthy();
    expect(screen.queryByTestId('org-filter')).toBeNull();
  });

  it('switches, reloads the session in the new organisation and goes to a safe nextUrl without a page reload', async () => {
    const b = backend(5);
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    const view = await mount(b, `?nextUrl=${encodeURIComponent('/users/settings/ssh?tab=1')}`);
    await waitFor(() => expect(names()).toHaveLength(5));
    await act(async () => fireEvent.click(screen.getAllByTestId('org-item')[3]));
    await waitFor(() => expect(view.location()).toBe('/users/settings/ssh'));
    expect(b.callsTo(SWITCH)).toMatchObject([{ body: { organization_id: 'o3' }, headers: { 'x-tenant-id': 'o3' } }]);
    expect(view.root.session.user?.organization_id).toBe('o3');
    // Later /uiless/ calls carry the new organisation.
    expect(b.callsTo('POST /uiless/api/apps:search').at(-1)?.headers['x-tenant-id']).toBe('o3');
    expect(assign).not.toHaveBeenCalled();
  });

  it('ignores a foreign nextUrl and goes to the settings instead', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    const view = await mount(backend(3), `?nextUrl=${encodeURIComponent('https://evil.example/steal')}`);
    await waitFor(() => expect(names()).toHaveLength(3));
    await act(async () => fireEvent.click(screen.getAllByTestId('org-item')[2]));
    await waitFor(() => expect(view.location()).toBe('/users/settings'));
    expect(assign).not.toHaveBeenCalled();
  });

  it.each([
    [serviceError(403, 'Forbidden', 'nope'), 'Organization switch failed'],
    [serviceError(403, 'NoOrganizationPermission'), 'You have no permission for this organization.'],
    [
      serviceError(403, 'OrganizationIpRestricted'),
      'IP access is restricted; contact the administrator to change security settings in the console.',
    ],
    [serviceError(403, 'OrganizationLicenceExpired'), "The organization's license has expired."],
    [serviceError(403, 'OrganizationOrderExpired'), 'The standard edition order has expired'],
    [serviceError(403, 'OrganizationSecondFactorRequired'), 'This organization requires two-factor authentication.'],
  ])('says why a switch failed and stays (%#)', async (answer, text) => {
    const b = backend(3, { [SWITCH]: answer });
    const view = await mount(b, '?nextUrl=%2Fusers%2Fsettings%2Fssh');
    await waitFor(() => expect(names()).toHaveLength(3));
    await act(async () => fireEvent.click(screen.getAllByTestId('org-item')[2]));
    expect((await screen.findByTestId('org-switch-failure')).textContent).toContain(text);
    expect(view.location()).toBe('/users/switch/organization');
    expect(view.root.session.user?.organization_id).toBe('o1');
  });

  it('keeps the loaded list when "load more" fails, and offers a retry when the first page fails', async () => {
    let fail = false;
    const inner = backend(ORG_PAGE_SIZE_DEFAULT + 1);
    const b = backend(ORG_PAGE_SIZE_DEFAULT + 1, {
      [LIST]: async (r) => {
        if (fail) return serviceError(400, 'InvalidParameter');
        const res = await inner.fetch('/individual/proxy/my/organizations', {
          method: 'POST',
          body: JSON.stringify(r.body),
        });
        return ok(await res.json());
      },
    });
    await mount(b);
    await waitFor(() => expect(names()).toHaveLength(ORG_PAGE_SIZE_DEFAULT));
    fail = true;
    await act(async () => fireEvent.click(screen.getByTestId('org-load-more')));
    expect((await screen.findByTestId('org-switch-failure')).textContent).toContain(
      'Failed to load more organizations, please try again',
    );
    expect(names()).toHaveLength(ORG_PAGE_SIZE_DEFAULT);
    cleanup();

    await mount(backend(1, { [LIST]: serviceError(400, 'InvalidParameter') }));
    expect(await screen.findByText('Failed to load your organizations, please try again')).toBeTruthy();
  });

  it('shows the first page the page brought without asking; "load more" asks the service for the next', async () => {
    const b = backend(ORG_PAGE_SIZE_DEFAULT + 3);
    const brought = {
      organizations: orgs(0, ORG_PAGE_SIZE_DEFAULT),
      pages: { next_token: String(ORG_PAGE_SIZE_DEFAULT) },
    };
    await renderWithCore(<SwitchOrganizationPage />, {
      backend: b,
      route: '/users/switch/organization',
      pageData: { 'switch-org': { organizations: brought } },
    });
    await waitFor(() => expect(names()).toHaveLength(ORG_PAGE_SIZE_DEFAULT));
    await act(async () => new Promise((r) => setTimeout(r, 0)));
    expect(b.callsTo(LIST)).toHaveLength(0);
    await act(async () => fireEvent.click(screen.getByTestId('org-load-more')));
    await waitFor(() => expect(names()).toHaveLength(ORG_PAGE_SIZE_DEFAULT + 3));
    expect((b.callsTo(LIST)[0].body as { pagination: unknown }).pagination).toEqual({
      next_token: String(ORG_PAGE_SIZE_DEFAULT),
      page_size: ORG_PAGE_SIZE_DEFAULT,
    });
  });

  it('asks for the first page when what the page brought is malformed', async () => {
    for (const bad of [
      { organizations: [{ id: 'o9', name: 7, logo: null }], pages: { next_token: null } },
      { organizations: [] },
      'all of them',
    ]) {
      const b = backend(2);
      await renderWithCore(<SwitchOrganizationPage />, {
        backend: b,
        pageData: { 'switch-org': { organizations: bad } },
      });
      await waitFor(() => expect(names()).toEqual(['o0', 'o1']));
      expect(b.callsTo(LIST)).toHaveLength(1);
      cleanup();
    }
  });
});
