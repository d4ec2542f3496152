import type { APIRequestContext, Page } from '@playwright/test';
import {
  addVirtualAuthenticator,
  E2E_USERS,
  expect,
  expectNoAxeViolations,
  noHorizontalScroll,
  onLocalhost,
  settled,
  signIn,
  signOut,
  tabTo,
  test,
  totpCode,
} from './fixtures';

// Two-factor sign-in (issue 41) against the real service, in Chromium: a passkey added on the security page signs in
// alone and answers the second step after the password (Chromium's virtual authenticator, driven through the DevTools
// protocol's WebAuthn domain, stands in for the device); an authenticator app set up there (its code computed here
// from the secret the page shows) is asked for after the password; a recovery code signs in once and the page counts
// it; and the second step and the two-factor section by keyboard alone at 375 px, with axe. Each test has its own
// account. The editions: vpc and global (playwright.config.ts), the Chinese and the English family.
test.describe.configure({ timeout: 90_000 });

const SECURITY = '/users/settings/security';
const zhEditions = ['vpc', 'aliyun', 'dedicated'];

type User = { username: string; password: string };

const XHR = { 'x-requested-with': 'XMLHttpRequest' };

/** The CSRF token a signed-in page carries in its configuration. */
async function csrfOf(request: APIRequestContext): Promise<string> {
  const html = await (await request.get('/users/settings/profile')).text();
  const token = /"csrfToken":"([^"]+)"/.exec(html)?.[1];
  expect(token, 'the page carries a CSRF token').toBeTruthy();
  return token!;
}

/**
 * Gives `user` an authenticator app through the security page's own calls (the page's dialog is driven by the app
 * test), signed in and out again without a page: the secret and the ten recovery codes it answers once.
 */
async function setUpAppByCalls(request: APIRequestContext, user: User) {
  const login = await request.post('/users/ajax/login', {
    data: { username: user.username, password: user.password },
    headers: XHR,
  });
  expect(login.status(), await login.text()).toBe(200);
  const headers = { ...XHR, 'x-csrf-token': await csrfOf(request) };
  const setup = await request.post('/users/ajax/v1/my/two-factor/totp', { headers });
  expect(setup.status(), await setup.text()).toBe(200);
  const { secret } = (await setup.json()) as { secret: string };
  const confirmed = await request.post('/users/ajax/v1/my/two-factor/totp:confirm', {
    data: { code: totpCode(secret) },
    headers,
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  const { recovery_codes: codes } = (await confirmed.json()) as { recovery_codes: string[] | null };
  expect(codes).toHaveLength(10);
  const out = await request.post('/users/logout', { form: { csrf_token: headers['x-csrf-token'] }, maxRedirects: 0 });
  expect(out.status()).toBe(303);
  return { secret, recoveryCodes: codes! };
}

/** The sign-in form's first step, typed: the account and its password, then Enter. */
async function typePassword(page: Page, user: User) {
  await page.goto('/users/login');
  await page.locator('#username').fill(user.username);
  await page.locator('#password').fill(user.password);
  await page.locator('#password').press('Enter');
}

/** The second step's code field (the app's code, or a recovery code once chosen). */
const codeField = (page: Page, zh: boolean, recovery = false) =>
  page.getByLabel(recovery ? (zh ? '恢复码' : 'Recovery code') : zh ? '验证码' : 'Authentication code', {
    exact: true,
  });

/**
 * The recovery codes the security page shows once, after the first factor (or made again): ten of them; "Done" waits
 * for "I have saved these recovery codes". Resolves to the codes, once the dialog has closed.
 */
async function saveRecoveryCodes(page: Page, keyboard = false): Promise<string[]> {
  const dialog = await settled(page.getByRole('dialog').filter({ has: page.getByTestId('security-codes') }));
  await expect(dialog.getByTestId('security-code')).toHaveCount(10);
  const codes = await dialog.getByTestId('security-code').allTextContents();
  const done = dialog.getByTestId('security-codes-done');
  await expect(done).toBeDisabled();
  if (keyboard) {
    await tabTo(page, dialog.getByRole('checkbox'));
    await page.keyboard.press('Space');
    await tabTo(page, done);
    await page.keyboard.press('Enter');
  } else {
    await dialog.getByRole('checkbox').check();
    await done.click();
  }
  await expect(dialog).toBeHidden();
  return codes;
}

test.describe('with a passkey', () => {
  // A passkey is bound to a domain (the rp id): the service's is `localhost` without PUBLIC_URL, so this test opens
  // the same service as http://localhost:<port> throughout (cookies are per host).
  test.use({ baseURL: async ({ baseURL }, use) => use(onLocalhost(baseURL!)) });

  test('a passkey added on the security page signs in alone, without name or password, and answers the second step', async ({
    page,
  }, info) => {
    const zh = zhEditions.includes(info.project.name);
    const user = E2E_USERS.twoFactorPasskey;
    await signIn(page, user, SECURITY);
    // Attached once the page lives on the service's site (its first navigation may move it to another renderer), and
    // with the page in front: a WebAuthn call from a page without focus is refused (NotAllowedError).
    const device = await addVirtualAuthenticator(page);
    await page.bringToFront();

    // Add a passkey: a name, then the browser's own prompt (the virtual authenticator answers it), then the account's
    // first factor brings its ten recovery codes.
    const section = page.getByTestId('security-two-factor');
    await expect(section.getByTestId('security-two-factor-status')).toHaveText(zh ? '未开启' : 'Off');
    await section.getByTestId('security-passkey-add').click();
    const naming = page.getByRole('dialog').filter({ has: page.getByTestId('security-passkey-name-input') });
    // The dialog has settled once it has put the keyboard in its field.
    await expect(naming.getByTestId('security-passkey-name-input')).toBeFocused();
    await naming.getByTestId('security-passkey-name-input').fill('E2E laptop');
    await naming.getByTestId('security-passkey-dialog-ok').click();
    const codes = await saveRecoveryCodes(page);
    expect(new Set(codes).size).toBe(10);
    await expect(naming).toBeHidden();
    await expect(section.getByTestId('security-two-factor-status')).toHaveText(zh ? '已开启' : 'On');
    const passkey = section.getByTestId('security-passkey');
    await expect(passkey.getByTestId('security-passkey-name')).toHaveText('E2E laptop');
    await expect(passkey).toContainText(zh ? '从未使用' : 'Never used');
    const [made] = await device.credentials();
    expect(made).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
    // The section with a passkey listed (name, kind, dates, rename, remove) fits the narrowest phone.
    await page.setViewportSize({ width: 320, height: 800 });
    await expect.poll(() => noHorizontalScroll(page)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 720 });

    // Signed out, the sign-in page's passkey button signs in with it alone.
    await signOut(page);
    await page.getByTestId('passkey-sign-in').click();
    await expect(page).toHaveURL(/\/users\/settings\/profile$/);
    const [used] = await device.credentials();
    expect(used.signCount).toBeGreaterThan(made.signCount);
    await page.goto(SECURITY);
    await expect(section.getByTestId('security-passkey')).toContainText(zh ? '最近使用' : 'Last used');

    // After the password, the same passkey answers the second step (the account's passkeys are the ones allowed).
    await signOut(page);
    await typePassword(page, user);
    const answer = page.getByTestId('second-factor-passkey');
    await expect(answer).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/users\/settings\/profile$/);
    expect((await device.credentials())[0].signCount).toBeGreaterThan(used.signCount);
  });
});

test('an authenticator app set up on the security page is asked for after the password', async ({ page }, info) => {
  const zh = zhEditions.includes(info.project.name);
  const user = E2E_USERS.twoFactorApp;
  await signIn(page, user, SECURITY);

  // Set up the app: the QR code and the setup key in text; the test is the app, computing its code from the key.
  const section = page.getByTestId('security-two-factor');
  await section.getByTestId('security-totp-set-up').click();
  const setup = page.getByRole('dialog').filter({ has: page.getByTestId('security-totp-secret') });
  await expect(setup.getByTestId('security-totp-qr')).toBeVisible();
  const secret = (await setup.getByTestId('security-totp-secret').textContent())!;
  expect(secret.replace(/\s/g, '')).toMatch(/^[A-Z2-7]{16,}$/);
  await setup.getByTestId('security-totp-code').fill(totpCode(secret));
  await setup.getByTestId('security-totp-code').press('Enter');
  await saveRecoveryCodes(page);
  await expect(setup).toBeHidden();
  await expect(section.getByTestId('security-totp-state')).toHaveText(zh ? '已设置' : 'Set up');
  await expect(section.getByTestId('security-two-factor-status')).toHaveText(zh ? '已开启' : 'On');

  // Signed out, the password alone no longer signs in: the second step asks for the app's code.
  await signOut(page);
  await typePassword(page, user);
  const field = codeField(page, zh);
  await expect(field).toBeFocused();
  await expect(page).toHaveURL(/\/users\/login/);
  // The code of the step after the one that confirmed the app (a step's code counts once): no wait for the next.
  await field.fill(totpCode(secret, 1));
  await expect(page).toHaveURL(/\/users\/settings\/profile$/);
});

test('a recovery code signs in once, and the security page counts one less', async ({ page }, info) => {
  const zh = zhEditions.includes(info.project.name);
  const user = E2E_USERS.twoFactorRecovery;
  const { recoveryCodes } = await setUpAppByCalls(page.request, user);

  await typePassword(page, user);
  await expect(codeField(page, zh)).toBeVisible();
  await page.getByRole('button', { name: zh ? '使用恢复码' : 'Use a recovery code' }).click();
  const field = codeField(page, zh, true);
  await expect(field).toBeFocused();
  await field.fill(recoveryCodes[0]);
  await field.press('Enter');
  await expect(page).toHaveURL(/\/users\/settings\/profile$/);

  await page.goto(SECURITY);
  await expect(page.getByTestId('security-recovery-codes-left')).toHaveText(zh ? '剩余 9/10 个' : '9 of 10 left');
});

test('the second step and the two-factor section by keyboard alone at 375 px', async ({ page }, info) => {
  const zh = zhEditions.includes(info.project.name);
  const user = E2E_USERS.twoFactorKeys;
  const { secret } = await setUpAppByCalls(page.request, user);
  await page.setViewportSize({ width: 375, height: 800 });

  // The first step by keyboard: the account field has the focus, Tab to the password, Enter.
  await page.goto('/users/login');
  await expect(page.locator('#username')).toBeFocused();
  await page.keyboard.type(user.username);
  await page.keyboard.press('Tab');
  await expect(page.locator('#password')).toBeFocused();
  await page.keyboard.type(user.password);
  await page.keyboard.press('Enter');

  // The second step takes the focus to its code field; a wrong code is said, and the field is ready for the next.
  const field = codeField(page, zh);
  await expect(field).toBeFocused();
  expect(await noHorizontalScroll(page)).toBe(true);
  const near = [-1, 0, 1].map((steps) => totpCode(secret, steps));
  const wrong = ['000000', '111111', '222222', '333333'].find((c) => !near.includes(c))!;
  await page.keyboard.type(wrong);
  await expect(page.getByRole('alert')).toContainText(
    zh ? '验证码或通行密钥验证未通过' : 'The code or passkey was not accepted',
  );
  await expect(field).toHaveValue('');
  await expect(field).toBeFocused();
  await expectNoAxeViolations(page, []);
  await page.keyboard.type(totpCode(secret, 1));
  await expect(page).toHaveURL(/\/users\/settings\/profile$/);

  // The two-factor section: new recovery codes by keyboard (the button, its confirmation, the one-time dialog).
  await page.goto(SECURITY);
  const section = page.getByTestId('security-two-factor');
  await expect(section.getByTestId('security-recovery-codes-left')).toHaveText(zh ? '剩余 10/10 个' : '10 of 10 left');
  expect(await noHorizontalScroll(page)).toBe(true);
  await expectNoAxeViolations(page);
  await page.locator('body').focus();
  await tabTo(page, section.getByTestId('security-recovery-codes-new'));
  await page.keyboard.press('Enter');
  const ok = page
    .locator('.ant-popconfirm:not(.ant-popover-hidden)')
    .getByRole('button', { name: zh ? '生成新恢复码' : 'Generate new codes' });
  await expect(ok).toBeVisible();
  await tabTo(page, ok);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('security-codes')).toBeVisible();
  await expectNoAxeViolations(page);
  await saveRecoveryCodes(page, true);
  await expect(section.getByTestId('security-recovery-codes-left')).toHaveText(zh ? '剩余 10/10 个' : '10 of 10 left');
  // The keyboard goes on from the section (the dialog's opener left with the confirmation), not from the page's top.
  await expect(page.locator('#security-two-factor-title')).toBeFocused();
});
