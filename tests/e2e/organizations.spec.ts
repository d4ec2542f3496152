import type { Page } from '@playwright/test';
import {
  E2E_MANY_ORGS,
  E2E_ORG,
  E2E_ORG_USERS,
  E2E_PACKAGES_ORG,
  expect,
  expectAppTookOver,
  holdScripts,
  SCRIPTS_ROUTE,
  signIn,
  test,
} from './fixtures';

// Organisations end to end: switching, the chooser's pages, the application entry guard, the service's policies
// and the user with no organisation. vpc (private deployment, Chinese) and global (English, no packages section).
test.describe.configure({ timeout: 90_000 });
// eslint-disable-next-line no-empty-pattern -- Playwright wants the fixture object before the test info
test.beforeEach(({}, info) => {
  test.skip(!['vpc', 'global'].includes(info.project.name), 'organisation rules are the same in the other editions');
});

/** The header's link naming the current organisation. */
const currentOrg = (page: Page) => page.getByTestId('current-org');

/** The header link's accessible name for an organisation ("Current organization: NAME. Change…", both languages). */
const named = (name: string) => new RegExp(`[:：]\\s*${name}[.。,，]`);

/** Opens the chooser from the header and picks an organisation by name; lands back where it started. */
async function switchTo(page: Page, name: string) {
  const from = page.url();
  // After a reload the header is painted: its link answers once the app has the page.
  await expectAppTookOver(page);
  await currentOrg(page).click();
  await expect(page).toHaveURL(/\/users\/switch\/organization\?nextUrl=/);
  // The chooser comes painted when the link was followed before the app had the page: a choice waits for it.
  await expectAppTookOver(page);
  await page.getByTestId('org-item').filter({ hasText: name }).click();
  await expect(page).toHaveURL(from);
  await expect(currentOrg(page)).toHaveAccessibleName(named(name));
}

test('a member of two organisations switches between them; header and sections follow', async ({ page }, info) => {
  await signIn(page, E2E_ORG_USERS.switcher);
  await expect(currentOrg(page)).toHaveAccessibleName(named(E2E_ORG.name));
  const packagesEntry = page.locator('[data-menu-key="packagesCredential"]');
  const sshEntry = page.locator('[data-menu-key="ssh"]');
  await expect(sshEntry).toBeVisible();
  await expect(packagesEntry).toHaveCount(0);

  await switchTo(page, E2E_PACKAGES_ORG.name);
  // vpc shows the artifact credential where packages is installed; global's menu never lists it.
  if (info.project.name === 'vpc') await expect(packagesEntry).toBeVisible();
  else await expect(packagesEntry).toHaveCount(0);
  // The choice is the service's: it survives a reload.
  await page.reload();
  await expect(currentOrg(page)).toHaveAccessibleName(named(E2E_PACKAGES_ORG.name));

  await switchTo(page, E2E_ORG.name);
  await expect(packagesEntry).toHaveCount(0);
  await expect(sshEntry).toBeVisible();
});

test('the chooser loads 50 organisations, "load more" appends the next pages, the filter narrows', async ({ page }) => {
  await signIn(page, E2E_ORG_USERS.many);
  await page.goto('/users/switch/organization');
  const items = page.getByTestId('org-item');
  await expect(items).toHaveCount(50);
  await expect(items.first()).toContainText(`${E2E_MANY_ORGS.prefix} 001`);
  await expect(page.locator('[aria-current="true"]')).toHaveCount(1);
  await page.getByTestId('org-load-more').click();
  await expect(items).toHaveCount(100);
  await expect(items.nth(50)).toContainText(`${E2E_MANY_ORGS.prefix} 051`);
  await page.getByTestId('org-load-more').click();
  await expect(items).toHaveCount(E2E_MANY_ORGS.count);
  await expect(page.getByTestId('org-load-more')).toHaveCount(0);
  await page.getByTestId('org-filter').fill('Org 11');
  await expect(items).toHaveCount(10); // 110 to 119 ("011" reads "Org 011")
});

test('the chooser comes painted with its first page; a choice works once the app has it', async ({ page }) => {
  await signIn(page, E2E_ORG_USERS.many);
  const chooser = `/users/switch/organization?nextUrl=${encodeURIComponent('/users/settings/profile')}`;
  const title = /^(切换企业|Switch organization)$/;
  const description = /^(选择您要进入的企业。|Choose the organization you want to work in\.)$/;

  // The service sends the page with its first screen: title, description and the list's first page.
  const served = await (await page.request.get(chooser)).text();
  expect(served).toMatch(
    new RegExp(
      `<div id="container" data-first-screen>[\\s\\S]*(切换企业|Switch organization)[\\s\\S]*` +
        `(选择您要进入的企业。|Choose the organization you want to work in\\.)[\\s\\S]*${E2E_MANY_ORGS.prefix} 001`,
    ),
  );

  // Painted before any script runs (held back: a slow phone on a slow network), the current organisation marked.
  const release = await holdScripts(page);
  await page.goto(chooser, { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByText(description)).toBeVisible();
  const items = page.getByTestId('org-item');
  await expect(items).toHaveCount(50);
  await expect(items.first()).toContainText(`${E2E_MANY_ORGS.prefix} 001`);
  const current = page.locator('[data-testid="org-item"][aria-current="true"]');
  await expect(current).toHaveCount(1);
  await expect(page.locator('body')).toHaveAttribute('data-settling');

  // The app takes the paint over as it is (a hydration error fails the test); a choice then leads to the next page.
  release();
  await expectAppTookOver(page);
  await page.unroute(SCRIPTS_ROUTE);
  await expect(items).toHaveCount(50);
  await current.click();
  await expect(page).toHaveURL(/\/users\/settings\/profile$/);
});

test('an application tile goes through the entry guard to the application address', async ({ page }) => {
  await signIn(page, E2E_ORG_USERS.switcher);
  const tile = page.locator('a[data-app="codeup"]');
  await page.getByRole('button', { name: /应用切换|Switch application/ }).click();
  await expect(tile).toHaveAttribute('href', /\/users\/switch\/[^/]+\/app-entry\?app=codeup$/);
  const orgId = /\/users\/switch\/([^/]+)\//.exec((await tile.getAttribute('href')) ?? '')?.[1];
  await tile.click();
  // Both access calls pass (codeup is installed): the guard sends the browser to the edition's address of the app.
  await expect(page).toHaveURL(/\/codeup\/$/);

  // An app the organisation has not installed stops at the guard, which says why.
  await page.goto(`/users/switch/${orgId}/app-entry?app=packages`);
  await expect(page.getByTestId('entry-result')).toHaveAttribute('data-entry', 'notInstalled');
});

test('an IP whitelist that excludes this address restricts the organisation, not the profile', async ({ page }) => {
  await signIn(page, E2E_ORG_USERS.blocked);
  await expect(page.getByTestId('org-notice')).toHaveAttribute('data-notice', 'ip-restricted');
  await expect(page.getByTestId('org-notice')).toContainText(/IP/);
  // Personal settings keep working: the profile shows the account.
  await expect(page.getByTestId('profile-account-value')).toHaveText(E2E_ORG_USERS.blocked.username);
  await page.goto('/users/settings/personalAccessToken');
  await expect(page.getByTestId('access-tokens')).toBeVisible();
  await expect(page.getByTestId('token-count')).toBeVisible();
});

test('an expired licence shows its notice while personal settings keep working', async ({ page }) => {
  await signIn(page, E2E_ORG_USERS.expired);
  await expect(page.getByTestId('org-notice')).toHaveAttribute('data-notice', 'license-expired');
  await page.goto('/users/settings/personalAccessToken');
  await expect(page.getByTestId('access-tokens')).toBeVisible();
});

test('a user with no organisation signs in and uses profile and tokens', async ({ page }) => {
  await signIn(page, E2E_ORG_USERS.loner);
  await expect(page.getByTestId('org-notice')).toHaveAttribute('data-notice', 'no-org');
  await expect(page.locator('[data-menu-key="profile"]')).toBeVisible();
  await expect(page.locator('[data-menu-key="personalAccessToken"]')).toBeVisible();
  await expect(page.locator('[data-menu-key="packagesCredential"]')).toHaveCount(0);
  await page.locator('[data-menu-key="personalAccessToken"]').click();
  await expect(page.getByTestId('access-tokens')).toBeVisible();
  await expect(page.getByTestId('token-count')).toContainText(/0/);
  // The chooser explains there is nothing to choose yet.
  await page.goto('/users/switch/organization');
  await expect(page.getByTestId('org-item')).toHaveCount(0);
});
