import type { Page } from '@playwright/test';
import {
  ageProofs,
  createTokenOnPage,
  E2E_USERS,
  expect,
  expectNoAxeViolations,
  signIn,
  test,
  TOKENS_PAGE as TOKENS,
} from './fixtures';

// Re-authentication ("sudo mode") end to end: a session whose last proof is older than the window is asked for the
// password in the core's dialog when it creates a token, once; the call then goes through as if nothing happened,
// and the next one within the window asks nothing. The window is minutes of real time: the harness ages the account's
// proofs (ageProofs), as a long-open session would have them.
test.describe.configure({ timeout: 120_000 });

const user = E2E_USERS.reauth;

/** Fills the new-token drawer (name, description, 30 days, one scope) and saves. */
const createToken = (page: Page, name: string) => createTokenOnPage(page, name, 'made in the re-authentication spec');

test('a stale session is asked for the password once, the token is then made; not again within the window', async ({
  page,
  baseURL,
}) => {
  await signIn(page, user, TOKENS);
  await ageProofs(baseURL!, user.username);
  const stamp = Date.now();

  await createToken(page, `first ${stamp}`);
  const dialog = page.getByTestId('core-reauth');
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('dialog', { name: /^(确认是你本人|Confirm it is you)$/ })).toBeVisible();
  // The focus is in the password field; Enter proves.
  const password = page.getByTestId('core-reauth-password');
  await expect(password).toBeFocused();
  // The dialog itself (the drawer behind it waits with its save button busy).
  await expectNoAxeViolations(page, ['header', 'nav', 'footer', '[data-testid="shell-sider"]', '.ant-drawer']);
  await password.fill('Wrong@pass9');
  await page.keyboard.press('Enter');
  // A wrong one: said in the dialog, in the page's language; the field is empty and focused again.
  await expect(dialog.getByRole('alert')).toHaveText(/^(密码错误。|The password is incorrect\.)$/);
  await expect(password).toHaveValue('');
  await expect(password).toBeFocused();
  await password.fill(user.password);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  // The original call went through: the token is shown once.
  await expect(page.getByTestId('token-created')).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('tr', { hasText: `first ${stamp}` })).toBeVisible();

  // Within the window: no question (the client carries the rotated session's CSRF token).
  await createToken(page, `second ${stamp}`);
  await expect(page.getByTestId('token-created')).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('tr', { hasText: `second ${stamp}` })).toBeVisible();
  await expect(dialog).toHaveCount(0);
});

test('Esc cancels: nothing is made and nothing more is said; the session goes on', async ({ page, baseURL }) => {
  await signIn(page, user, TOKENS);
  await ageProofs(baseURL!, user.username);
  const name = `cancelled ${Date.now()}`;
  await createToken(page, name);
  const dialog = page.getByTestId('core-reauth');
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // No error toast on top of the dialog the member closed; the form is still there to try again.
  await expect(page.locator('.ant-message-error')).toHaveCount(0);
  await expect(page.getByTestId('token-save')).toBeVisible();
  await page.goto(TOKENS);
  await expect(page.getByTestId('access-tokens')).toBeVisible();
  await expect(page.locator('tr', { hasText: name })).toHaveCount(0);
});
