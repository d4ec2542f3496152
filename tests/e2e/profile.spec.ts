import type { Page } from '@playwright/test';
import {
  ageProofs,
  dropSession,
  E2E_USERS,
  expect,
  expectNoAxeViolations,
  mailsTo,
  settled,
  signIn,
  test,
} from './fixtures';

// The profile section against the real service; mail goes to the serve process's loopback SMTP sink.
// Mail delivery, a 5 s countdown and several sign-ins need more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 120_000 });
/** Toasts of calls that send mail or re-encode images may take seconds on a loaded machine. */
const SLOW = { timeout: 15_000 };

/** A valid 4×4 PNG (made with sharp), inlined so the spec needs no image library. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEElEQVR4nGMwTjsDRwzEcQA64hZRB8tCjwAAAABJRU5ErkJggg==',
  'base64',
);

/** Pins the UI language so texts are predictable in every edition (some default to English). */
/** The shell's frame (top bar, settings menu, footer) is not this section's: the shell spec checks it. */
const PROFILE_AXE_EXCLUDE = ['header', 'nav', 'footer'];

async function useChinese(page: Page, baseURL: string) {
  await page.context().addCookies([{ name: 'ak_user_locale', value: 'zh_CN', url: baseURL }]);
}

test('e-mail: bind, open the activation link from the received mail, see it verified', async ({ page, baseURL }) => {
  const address = `profile-${Date.now()}@example.com`;
  await useChinese(page, baseURL!);
  await signIn(page, E2E_USERS.profile);
  const row = page.getByTestId('profile-email');
  await expect(row).toContainText('未绑定');
  await expectNoAxeViolations(page, PROFILE_AXE_EXCLUDE);

  await row.getByRole('button', { name: '绑定' }).click();
  const dialog = await settled(page.getByRole('dialog'));
  await dialog.getByLabel('邮箱地址').fill('not-an-address');
  await dialog.getByRole('button', { name: '发送激活邮件' }).click();
  await expect(dialog).toContainText('邮箱格式不正确');
  await dialog.getByLabel('邮箱地址').fill(address);
  // No password field: the sign-in a moment ago is the recent proof the change needs (re-authentication).
  await expect(dialog.getByLabel('当前密码')).toHaveCount(0);
  await dialog.getByRole('button', { name: '发送激活邮件' }).click();
  await expect(page.getByText('发送成功')).toBeVisible(SLOW);
  await expect(row).toContainText(address);
  await expect(row).toContainText('未验证');
  // The resend button counts down the minute.
  await expect(page.getByTestId('profile-email-resend')).toBeDisabled();
  await expect(page.getByTestId('profile-email-resend')).toContainText(/重新发送（\d+s）/);

  let link = '';
  await expect
    .poll(async () => {
      const mails = await mailsTo(baseURL!, address);
      link = mails[0]?.links.find((l) => l.includes('/users/emails?token=')) ?? '';
      return link;
    })
    .toContain('/users/emails?token=');
  await page.goto(link);
  await expect(page.getByTestId('email-verify')).toContainText('邮箱验证成功');
  await expect(page.getByTestId('email-verify')).toContainText(/\d 秒后返回个人设置/);
  await expectNoAxeViolations(page, PROFILE_AXE_EXCLUDE);
  // The countdown returns to the settings by itself.
  await expect(page).toHaveURL(/\/users\/settings\/profile$/, { timeout: 10_000 });
  await expect(page.getByTestId('profile-email')).toContainText('已验证');

  // The same link again is refused.
  await page.goto(link);
  await expect(page.getByTestId('email-verify')).toContainText('激活链接不匹配');

  // Modify, once the session's proof is old: the core asks for the password; a wrong one is refused in its dialog
  // and, cancelled, nothing changes (a right one within the minute would meet the mail throttle, so the HTTP tests
  // cover the change itself).
  await ageProofs(baseURL!, E2E_USERS.profile.username);
  await page.goto('/users/settings/profile');
  await page.getByTestId('profile-email-modify').click();
  const modify = await settled(page.getByRole('dialog', { name: '修改邮箱' }));
  await modify.getByLabel('邮箱地址').fill(`next-${address}`);
  await expect(modify.getByLabel('当前密码')).toHaveCount(0);
  await modify.getByRole('button', { name: '发送激活邮件' }).click();
  const reauth = page.getByTestId('core-reauth');
  await expect(reauth).toBeVisible(SLOW);
  await expect(reauth).toContainText('为了账号安全，请再次输入密码后继续');
  await page.getByTestId('core-reauth-password').fill('Wrong@pass1');
  await page.keyboard.press('Enter');
  await expect(reauth.getByRole('alert')).toHaveText('密码错误。', SLOW);
  await page.keyboard.press('Escape');
  await expect(reauth).toBeHidden();
  await expect(page.getByTestId('profile-email')).toContainText(address);
});

test('password: change it and sign in with the new one', async ({ page, baseURL }) => {
  await useChinese(page, baseURL!);
  const user = E2E_USERS.profilePassword;
  await signIn(page, user);
  await page.getByTestId('profile-password').getByRole('button', { name: '修改' }).click();
  const dialog = await settled(page.getByRole('dialog'));
  await dialog.getByLabel('当前密码').fill(user.password);
  await dialog.getByLabel('新密码', { exact: true }).fill('short');
  await dialog.getByLabel('确认新密码').fill('other');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(dialog).toContainText('密码长度至少为 8 位');
  await expect(dialog).toContainText('两次输入的密码不一致');
  const fresh = 'Changed#pass2';
  await dialog.getByLabel('新密码', { exact: true }).fill(fresh);
  await dialog.getByLabel('确认新密码').fill(fresh);
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('密码已修改')).toBeVisible(SLOW);
  await dropSession(page);
  await useChinese(page, baseURL!);
  await signIn(page, { username: user.username, password: fresh });
  // Put the old password back so the spec can run again against the same service.
  await page.getByTestId('profile-password').getByRole('button', { name: '修改' }).click();
  await dialog.getByLabel('当前密码').fill(fresh);
  await dialog.getByLabel('新密码', { exact: true }).fill(user.password);
  await dialog.getByLabel('确认新密码').fill(user.password);
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('密码已修改')).toBeVisible(SLOW);
});

test('language: switch to English, then back to Chinese; the choice persists', async ({ page, baseURL }) => {
  await useChinese(page, baseURL!);
  await signIn(page, E2E_USERS.profile);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('个人信息');
  await page.locator('#profile-language-select').click();
  await page.locator('.ant-select-item-option').filter({ hasText: 'English (US)' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Personal information');
  await expect(page.getByTestId('profile-account')).toContainText('Account');
  expect((await page.context().cookies()).find((c) => c.name === 'ak_user_locale')?.value).toBe('en_US');
  await expectNoAxeViolations(page, PROFILE_AXE_EXCLUDE);
  // Reloaded, the page is in English, and the language goes back to Chinese.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Personal information');
  await page.locator('#profile-language-select').click();
  await page.locator('.ant-select-item-option').filter({ hasText: 'Chinese (Simplified)' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('个人信息');
  expect((await page.context().cookies()).find((c) => c.name === 'ak_user_locale')?.value).toBe('zh_CN');
});

test('appearance: choose Dark; the page turns dark at once and after a reload, from the first paint, kept on the account', async ({
  page,
  baseURL,
}) => {
  // The system is light: what turns the page dark is the account's choice.
  await page.emulateMedia({ colorScheme: 'light' });
  const shade = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await useChinese(page, baseURL!);
  await signIn(page, E2E_USERS.appearance);
  expect(await shade()).toBe('rgb(255, 255, 255)');
  const row = page.getByTestId('profile-appearance');
  await expect(row).toContainText('外观');
  await expect(row).toContainText('跟随系统');
  const saved: unknown[] = [];
  page.on('request', (r) => r.url().endsWith('/users/ajax/v1/my/appearance') && saved.push(r.postDataJSON()));

  await page.getByLabel('外观').click();
  await expect(page.locator('.ant-select-item-option')).toHaveText(['跟随系统', '浅色', '深色']);
  await page.locator('.ant-select-item-option').filter({ hasText: '深色' }).click();
  await expect(page.getByText('外观已保存')).toBeVisible(SLOW);
  await expect(row).toContainText('深色');
  expect(saved).toEqual([{ colorScheme: 'dark' }]);
  await expect.poll(shade).toBe('rgb(20, 20, 20)');

  // Reloaded, the page (painted from what the service put in it) still says Dark, dark before any script; so does
  // the account.
  const html = await (await page.request.get('/users/settings/profile')).text();
  expect(html).toMatch(/<link[^>]*id="antd-dark"[^>]*media="all"/);
  await page.reload();
  await expect(row).toContainText('深色');
  expect(await shade()).toBe('rgb(20, 20, 20)');
  const me = await page.request.get('/individual/proxy/me', { headers: { 'x-requested-with': 'XMLHttpRequest' } });
  expect((await me.json()).colorScheme).toBe('dark');

  // Back to following the system, so the account is as the spec found it.
  await page.getByLabel('外观').click();
  await page.locator('.ant-select-item-option').filter({ hasText: '跟随系统' }).click();
  await expect(page.getByText('外观已保存')).toBeVisible(SLOW);
  await expect(row).toContainText('跟随系统');
  await expect.poll(shade).toBe('rgb(255, 255, 255)');
});

test('avatar: a renamed SVG is refused in the browser; upload a PNG, then restore the default', async ({
  page,
  baseURL,
}) => {
  await useChinese(page, baseURL!);
  await signIn(page, E2E_USERS.profile);
  const input = page.getByTestId('profile-avatar-input');
  const image = page.getByTestId('profile-avatar-image');
  const uploads: string[] = [];
  page.on('request', (r) => r.url().includes('/objects/ajax/avatars') && uploads.push(r.url()));

  await input.setInputFiles({ name: 'evil.png', mimeType: 'image/png', buffer: Buffer.from('<svg></svg>') });
  await expect(page.getByText('上传失败，文件格式仅支持 JPG、JPEG、PNG、GIF')).toBeVisible(SLOW);
  expect(uploads).toHaveLength(0);

  await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByText('头像已更新')).toBeVisible(SLOW);
  await expect(image).toHaveAttribute('data-custom', 'true');
  const src = await image.locator('img').getAttribute('src');
  expect(src).toMatch(/^\/objects\/avatars\/[0-9a-f]{32}\.png$/);
  const served = await page.request.get(src!);
  expect(served.headers()['content-type']).toBe('image/png');
  expect(served.headers()['x-content-type-options']).toBe('nosniff');
  await expectNoAxeViolations(page, PROFILE_AXE_EXCLUDE);

  await page.getByRole('button', { name: '恢复默认' }).click();
  await expect(page.getByText('头像恢复成功')).toBeVisible(SLOW);
  await expect(image).toHaveAttribute('data-custom', 'false');
});

test('the page brings what the first render needs: no count, attributes, SSH or token list call on arrival', async ({
  page,
}, info) => {
  test.skip(!['vpc', 'global'].includes(info.project.name), 'the page data is built the same in every edition');
  await signIn(page, E2E_USERS.profile);
  const asked: string[] = [];
  page.on('request', (r) => {
    if (/unread:countGroupByApp|attributes:bind/.test(r.url())) asked.push(new URL(r.url()).pathname);
  });
  await page.goto('/users/settings/profile');
  await expect(page.getByTestId('profile-email')).toBeVisible();
  await expect(page.getByTestId('inbox-bell')).toBeVisible();
  // The password row knows the account has a password (the attributes came with the page).
  await expect(page.getByTestId('profile-password')).toBeVisible();
  await page.waitForTimeout(500);
  expect(asked).toEqual([]);
  // A navigation in the app still asks the bell's counts again.
  const counted = page.waitForRequest(/unread:countGroupByApp/);
  const listed = page.waitForRequest(/\/user\/keys$/);
  await page.locator('[data-menu-key="ssh"]').click();
  await counted;
  // The SSH section was not the page served: it asks its list.
  await listed;
  await expect(page).toHaveURL(/\/users\/settings\/ssh$/);
  // Served as the page, the SSH section has its list with it.
  asked.length = 0;
  page.on('request', (r) => {
    if (/\/user\/keys$/.test(r.url())) asked.push(new URL(r.url()).pathname);
  });
  await page.goto('/users/settings/ssh');
  await expect(page.getByTestId('ssh-key-count')).toBeVisible();
  await page.waitForTimeout(500);
  expect(asked).toEqual([]);
  // And the token page its list's first page.
  page.on('request', (r) => {
    if (/tokens:search$/.test(r.url())) asked.push(new URL(r.url()).pathname);
  });
  await page.goto('/users/settings/personalAccessToken');
  await expect(page.getByTestId('access-tokens').getByText(/^(暂无访问令牌|No personal access tokens)$/)).toBeVisible();
  await page.waitForTimeout(500);
  expect(asked).toEqual([]);
});
