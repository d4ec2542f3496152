import type { Page } from '@playwright/test';
import {
  E2E_ORG_USERS,
  E2E_POLICY_ORGS,
  expect,
  expectNoAxeViolations,
  settled,
  signIn,
  test,
  totpCode,
} from './fixtures';

// An organisation requiring a second factor (issue 41, item 5) against the real service, in Chromium: a member
// without one is told why above the settings, goes to the security page (personal: never refused), sets up an
// authenticator app there (its code computed here from the key the page shows) and works in the organisation again;
// a member whose grace lasts is warned with the day. vpc (Chinese) and global (English).
test.describe.configure({ timeout: 90_000 });
// eslint-disable-next-line no-empty-pattern -- Playwright wants the fixture object before the test info
test.beforeEach(({}, info) => {
  test.skip(!['vpc', 'global'].includes(info.project.name), 'organisation rules are the same in the other editions');
});

const SECURITY = '/users/settings/security';

/** The header's link naming the current organisation (shown only while the organisation admits the member). */
const currentOrg = (page: Page) => page.getByTestId('current-org');

/** The recovery codes dialog the first factor brings: saved, then closed. */
async function saveRecoveryCodes(page: Page) {
  const dialog = await settled(page.getByRole('dialog').filter({ has: page.getByTestId('security-codes') }));
  await expect(dialog.getByTestId('security-code')).toHaveCount(10);
  await dialog.getByRole('checkbox').check();
  await dialog.getByTestId('security-codes-done').click();
  await expect(dialog).toBeHidden();
}

test('an organisation requiring a second factor sends a member to set one up, and admits them once they have', async ({
  page,
}, info) => {
  const zh = info.project.name === 'vpc';
  const org = E2E_POLICY_ORGS.twoFactor.name;
  await signIn(page, E2E_ORG_USERS.enrol);

  // The member sees why, naming the organisation, while the personal settings keep working below.
  const notice = page.getByTestId('org-notice');
  await expect(notice).toHaveAttribute('data-notice', 'second-factor-required');
  await expect(notice).toContainText(zh ? '需要开启两步验证' : 'Two-factor authentication required');
  await expect(notice).toContainText(
    zh ? `企业 ${org} 要求成员开启两步验证` : `${org} requires its members to use two-factor authentication`,
  );
  await expect(page.getByTestId('profile-account-value')).toHaveText(E2E_ORG_USERS.enrol.username);
  await expect(currentOrg(page)).toHaveCount(0);
  // The organisation's sections are out of reach: its apps are not read (vpc lists SSH keys only with code hosting;
  // global lists them always).
  const ssh = page.locator('[data-menu-key="ssh"]');
  if (zh) await expect(ssh).toHaveCount(0);
  await expectNoAxeViolations(page);

  // The way out: the security page, which works.
  await notice.getByTestId('org-notice-second-factor').click();
  await expect(page).toHaveURL(new RegExp(`${SECURITY}$`));
  const section = page.getByTestId('security-two-factor');
  await expect(section.getByTestId('security-two-factor-status')).toHaveText(zh ? '未开启' : 'Off');

  // Set up the app there: the test is the app, computing its code from the key the page shows.
  await section.getByTestId('security-totp-set-up').click();
  const setup = page.getByRole('dialog').filter({ has: page.getByTestId('security-totp-secret') });
  const secret = (await setup.getByTestId('security-totp-secret').textContent())!;
  await setup.getByTestId('security-totp-code').fill(totpCode(secret));
  await setup.getByTestId('security-totp-code').press('Enter');
  await saveRecoveryCodes(page);
  await expect(section.getByTestId('security-two-factor-status')).toHaveText(zh ? '已开启' : 'On');

  // The organisation admits the member again: no notice, its name in the header, its sections back.
  await page.goto('/users/settings/profile');
  await expect(currentOrg(page)).toContainText(org);
  await expect(page.getByTestId('org-notice')).toHaveCount(0);
  await expect(ssh).toBeVisible();
});

test('a member whose grace lasts is warned with the day, and works in the organisation meanwhile', async ({
  page,
}, info) => {
  const zh = info.project.name === 'vpc';
  const org = E2E_POLICY_ORGS.twoFactorGrace.name;
  await signIn(page, E2E_ORG_USERS.grace);
  const warning = page.getByTestId('org-second-factor-grace');
  await expect(warning).toContainText(zh ? `企业 ${org} 将从` : `${org} will require two-factor authentication from`);
  // The day is fourteen days on, in the page's language (the year is enough to know a date is there).
  await expect(warning).toContainText(String(new Date(Date.now() + 14 * 86_400_000).getFullYear()));
  await expect(page.getByTestId('org-notice')).toHaveCount(0);
  await expect(currentOrg(page)).toContainText(org);
  await expect(page.locator('[data-menu-key="ssh"]')).toBeVisible();
  await expectNoAxeViolations(page);
  await warning.getByTestId('org-notice-second-factor').click();
  await expect(page).toHaveURL(new RegExp(`${SECURITY}$`));
  await expect(page.getByTestId('security-two-factor')).toBeVisible();
});
