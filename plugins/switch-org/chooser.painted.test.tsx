import { act, cleanup, fireEvent, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeBackend, ok } from '../../tests/kit/fake-backend';
import { paintAndHydrate } from '../../tests/kit/hydration';
import { NO_TRACKER, TEST_USER } from '../../tests/kit/web';
import type { Locale } from '../../src/core/edition';
import { createRootStore, type RootStore } from '../../src/core/stores/root';
import type { Organization } from './contract';
import { ORG_PAGE_SIZE_DEFAULT } from './limits';
import SwitchOrganizationPage from './pages/SwitchOrganizationPage';

// The organisation chooser comes painted (plugins/switch-org/index.ts `firstScreen`): the service renders it from the
// page's data (the signed-in user and the list's first page), the browser hydrates that and it works.

const LIST = 'POST /individual/proxy/my/organizations';
const orgs: Organization[] = Array.from({ length: ORG_PAGE_SIZE_DEFAULT }, (_, i) => ({
  id: `o${i}`,
  name: `Org ${i}`,
  logo: null,
}));
const brought = { 'switch-org': { organizations: { organizations: orgs, pages: { next_token: 'more' } } } };

/** A root store as a page with this data builds it (the service's and the browser's are two of them). */
function storesOf(backend: ReturnType<typeof fakeBackend>, locale: Locale): RootStore {
  return createRootStore({ switchOrganizations: () => import('./store') }, backend.client, locale, () => NO_TRACKER, {
    bootstrap: { locale, me: TEST_USER, plugins: brought },
  });
}

/** The chooser opened with a `nextUrl`, painted by the service and hydrated by the browser. */
async function painted(locale: Locale) {
  const service = storesOf(fakeBackend(), locale);
  await service.store('switchOrganizations');
  const backend = fakeBackend({
    [LIST]: ok({ organizations: [{ id: 'o99', name: 'Org 99', logo: null }], pages: { next_token: null } }),
  });
  const browser = storesOf(backend, locale);
  await browser.store('switchOrganizations');
  const page = await paintAndHydrate(
    { ui: <SwitchOrganizationPage />, route: '/users/switch/organization?nextUrl=%2Fusers%2Fsettings', locale },
    { service, browser },
  );
  return { ...page, backend };
}

describe('the organisation chooser, painted by the service', () => {
  afterEach(() => {
    cleanup();
    document.body.innerHTML = '';
  });

  it('holds title, description and the first page with the current one marked, and hydrates without a mismatch', async () => {
    const { html, container, mismatches, backend } = await painted('en_US');
    expect(html).toContain('Switch organization');
    expect(html).toContain('Choose the organization you want to work in.');
    expect(html).toContain('Org 0');
    expect(html).toContain(`Org ${ORG_PAGE_SIZE_DEFAULT - 1}`);
    expect(html).toMatch(/aria-current="true"[^>]*data-org-id="o1"/);
    expect(mismatches).toEqual([]);
    expect(backend.calls).toEqual([]);
    // The app has it: "load more" asks the service for the next page.
    await act(async () => fireEvent.click(within(container).getByTestId('org-load-more')));
    await waitFor(() => expect(within(container).getAllByTestId('org-item')).toHaveLength(ORG_PAGE_SIZE_DEFAULT + 1));
    expect(backend.callsTo(LIST)).toHaveLength(1);
  });

  it('hydrates in Chinese too', async () => {
    const { html, mismatches } = await painted('zh_CN');
    expect(html).toContain('切换企业');
    expect(html).toContain('选择您要进入的企业。');
    expect(mismatches).toEqual([]);
  });
});
