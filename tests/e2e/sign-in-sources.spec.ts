// Directory and third-party sign-in in Chromium against the real service, a real slapd and a real OpenID Connect
// provider (started by serve.ts on vpc and global: the spec sees both languages, zh_CN on vpc and en_US on global).
import type { Page } from '@playwright/test';
import { dropSession, E2E_SIGN_IN, expect, expectAppTookOver, test } from './fixtures';
import { LDAP_PASSWORDS } from '../kit/slapd';

const zh = () => (test.info().project.metadata as { edition: string }).edition !== 'global';
const T = {
  ldapTab: ['LDAP', 'LDAP'],
  lark: ['飞书', 'Lark'],
  notBound: ['飞书账号未绑定', 'This Lark account is not linked'],
  signInAndBind: ['登录并绑定', 'Sign in and link'],
  banner: ['登录后将绑定您的飞书账号', 'Sign in to link your Lark account'],
  notSupported: ['暂不支持钉钉登录', 'DingTalk sign-in is not supported'],
  noAccountInfo: ['未获取到登录账号信息', 'No account information'],
  loginFailed: ['账号登录失败', 'Sign-in failed'],
  back: ['返回登录', 'Back to sign in'],
} as const;
const t = (_page: Page, key: keyof typeof T) => T[key][zh() ? 0 : 1];

// playwright.config.ts runs this spec on vpc and global only (E2E_SIGN_IN.editions: their services have the sources).
test.describe.configure({ timeout: 60_000 });

// The provider's development pages ask Google for a font; the machine has no such network (and it is not ours).
test.beforeEach(async ({ context }) => {
  await context.route('https://fonts.googleapis.com/**', (r) =>
    r.fulfill({ status: 200, contentType: 'text/css', body: '' }),
  );
});

/** Completes the provider's own login and consent pages (oidc-provider's development interactions) as `login`. */
async function throughProvider(page: Page, login: string) {
  const form = page.locator('input[name="login"]');
  // A provider session from an earlier sign-in in this browser skips its login page.
  await Promise.race([form.waitFor(), page.waitForURL((u) => !u.href.includes('/interaction/'))]).catch(() => {});
  if (await form.isVisible()) {
    await form.fill(login);
    await page.locator('input[name="password"]').fill('any');
    await page.locator('button[type="submit"]').click();
  }
  const consent = page.locator('button[type="submit"]', { hasText: /continue/i });
  await page.waitForLoadState();
  if (page.url().includes('/interaction/') && (await consent.isVisible())) await consent.click();
}

test('an LDAP user signs in through the LDAP tab and lands in the settings', async ({ page }) => {
  await page.goto('/users/login');
  await page.getByRole('tab', { name: t(page, 'ldapTab') }).click();
  await page.locator('#ldap_username').fill('lin');
  await page.locator('#ldap_password').fill(LDAP_PASSWORDS.lin);
  await page.locator('button[type="submit"]').click();
  // The sign-in lands on /users/settings, which the app (once started) turns into the profile page: on a loaded
  // two-core runner that start took over five seconds once.
  await expect(page).toHaveURL(/\/users\/settings\/profile/, { timeout: 15_000 });
  await expect(page.getByText('Lin Wei').first()).toBeVisible();
});

test('wrong directory passwords count towards the lockout: after two, the slider is asked for', async ({ page }) => {
  await page.goto('/users/login');
  await page.getByRole('tab', { name: t(page, 'ldapTab') }).click();
  for (let i = 0; i < 2; i++) {
    await page.locator('#ldap_username').fill('sam');
    await page.locator('#ldap_password').fill('not-the-password');
    const answer = page.waitForResponse((r) => r.url().endsWith('/users/ajax/login'));
    await page.locator('button[type="submit"]').click();
    expect((await answer).status()).toBe(401);
  }
  await expect(page.getByTestId('slider-captcha')).toBeVisible();
});

test('a bound Lark account signs in through the provider', async ({ page }) => {
  await page.goto('/users/login');
  await page.getByTestId(`oauth-${E2E_SIGN_IN.working}`).click();
  await throughProvider(page, E2E_SIGN_IN.bound.openId);
  await expect(page).toHaveURL(/\/users\/settings\//);
  await expect(page.getByText(E2E_SIGN_IN.bound.name).first()).toBeVisible();
});

test('an unbound Lark account reaches "not bound", binds with a password sign-in, and signs in the next time', async ({
  page,
}) => {
  const openId = `lark-new-${(test.info().project.metadata as { edition: string }).edition}`;
  await page.goto('/users/login');
  await page.getByTestId(`oauth-${E2E_SIGN_IN.working}`).click();
  await throughProvider(page, openId);
  await expect(page).toHaveURL(/\/login\/errors\?type=notBound&provider=lark/);
  await expect(page.getByText(t(page, 'notBound'))).toBeVisible();
  // The sign-in page is served with the banner painted in it (the service brings the waiting account), before any
  // script of the page runs.
  const served = await page.request.get('/users/login?bind=1');
  expect(await served.text()).toContain('data-testid="pending-bind"');
  await page.getByRole('link', { name: t(page, 'signInAndBind') }).click();
  await expect(page.getByText(t(page, 'banner'))).toBeVisible();
  // Painted; a submit before the app has the page would reload it without sending anything.
  await expectAppTookOver(page);
  await page.locator('#username').fill(E2E_SIGN_IN.binder.username);
  await page.locator('#password').fill(E2E_SIGN_IN.binder.password);
  await page.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/users\/settings\//);
  if (zh()) {
    // vpc's menu has the third-party section (global's has none: the binding is read from the same call there).
    await page.goto('/users/settings/third-party');
    await expect(page.getByText(openId)).toBeVisible();
  } else {
    const identities = (await (await page.request.get('/individual/proxy/my/identities')).json()) as {
      results: Array<{ credential: string; open_id: string }>;
    };
    expect(identities.results).toContainEqual(expect.objectContaining({ credential: 'feishu', open_id: openId }));
  }
  // Signed out, the Lark account alone signs the binder in.
  await dropSession(page);
  await page.goto('/users/login');
  await page.getByTestId(`oauth-${E2E_SIGN_IN.working}`).click();
  await throughProvider(page, openId);
  await expect(page).toHaveURL(/\/users\/settings\//);
  await expect(page.getByText(E2E_SIGN_IN.binder.name).first()).toBeVisible();
});

test('the failure pages: not supported, no account information, sign-in failed', async ({ page }) => {
  // DingTalk is not enabled on this instance.
  await page.goto(`/login/oauth/${E2E_SIGN_IN.notSupported}`);
  await expect(page).toHaveURL(/\/login\/errors\?type=notSupported/);
  await expect(page.getByText(t(page, 'notSupported'))).toBeVisible();
  // WeCom's answer lacks the id field the instance reads.
  await page.goto('/users/login');
  await page.getByTestId(`oauth-${E2E_SIGN_IN.noAccountInfo}`).click();
  await throughProvider(page, 'wecom-person');
  await expect(page).toHaveURL(/\/login\/errors\?type=noAccountInfo/);
  await expect(page.getByText(t(page, 'noAccountInfo'))).toBeVisible();
  // A callback whose state this browser never started.
  await page.goto(`/login/oauth/${E2E_SIGN_IN.working}/callback?code=forged&state=forged`);
  await expect(page).toHaveURL(/\/login\/errors\?type=loginFailed/);
  await expect(page.getByText(t(page, 'loginFailed'))).toBeVisible();
  await page.getByRole('link', { name: t(page, 'back') }).click();
  await expect(page).toHaveURL(/\/(users|sso)\/login/);
});
