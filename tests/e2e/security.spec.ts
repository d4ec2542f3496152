import type { Browser, BrowserContext, Page } from '@playwright/test';
import {
  ageProofs,
  confirmInPopover,
  E2E_USERS,
  expect,
  expectNoAxeViolations,
  noHorizontalScroll,
  settled,
  signIn,
  tabTo,
  test,
} from './fixtures';

// The account's security page (issue 40) against the real service: sessions from two browser contexts, ending the
// other one, the history of the sign-ins, "this wasn't me" from the inbox, and the page by keyboard alone at 375 px.
// Several axe passes and a second browser per test: give them room on a loaded 2-core machine.
test.describe.configure({ timeout: 120_000 });
// A zone that is not the service's (UTC), half an hour off the hour.
test.use({ timezoneId: 'Asia/Kolkata' });

const SECURITY = '/users/settings/security';
const zhEditions = ['vpc', 'aliyun', 'dedicated'];
/** The other browser's User-Agent: another browser on another system, so its row tells itself apart. */
const OTHER_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';

type User = { username: string; password: string };

/** A second browser (its own cookies, another User-Agent) signed in as `user`: the session the test ends. */
async function otherBrowser(
  browser: Browser,
  baseURL: string,
  user: User,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, userAgent: OTHER_UA, timezoneId: 'Asia/Kolkata' });
  const page = await context.newPage();
  await signIn(page, user);
  return { context, page };
}

/** The sessions' rows (a table on a wide window, cards on a narrow one). */
const sessionRows = (page: Page) =>
  page.getByTestId('security-sessions').locator('tr[data-row-key], li[data-testid="security-session"]');

test('two browsers: both sessions are listed, the other is signed out (after the password) and lands on the sign-in page; the history has both sign-ins', async ({
  page,
  browser,
  baseURL,
}, info) => {
  const zh = zhEditions.includes(info.project.name);
  const user = E2E_USERS.security;
  const other = await otherBrowser(browser, baseURL!, user);
  await signIn(page, user, SECURITY);

  const rows = sessionRows(page);
  await expect(rows).toHaveCount(2);
  const here = rows.filter({ has: page.getByTestId('security-session-current') });
  await expect(here.getByTestId('security-session-current')).toHaveText(zh ? '当前设备' : 'This device');
  const there = rows.filter({ hasNot: page.getByTestId('security-session-current') });
  await expect(there.getByTestId('security-session-browser')).toHaveText(
    zh ? /^Linux 上的 Firefox 132$/ : /^Firefox 132 on Linux$/,
  );
  await expect(there).toContainText(zh ? '密码' : 'Password');
  await expect(there).toContainText('127.0.0.1');
  await expect(page.getByTestId('security-sessions-timeouts')).toHaveText(
    zh ? /^会话无操作 \d+ 分钟后结束，最迟在登录 \d+ 小时后结束。$/ : /^A session ends after \d+ minutes? without/,
  );
  await expectNoAxeViolations(page);

  // Sign out the other browser, after a confirmation; the sign-in's proof has aged, so the core asks for the
  // password first, and the call then goes through.
  await ageProofs(baseURL!, user.username);
  await there.getByRole('button', { name: zh ? '退出登录' : 'Sign out' }).click();
  await confirmInPopover(page, zh ? /^退出登录$/ : /^Sign out$/);
  const proof = page.getByTestId('core-reauth');
  await expect(proof).toBeVisible({ timeout: 15_000 });
  await expect(rows).toHaveCount(2);
  await page.getByTestId('core-reauth-password').fill(user.password);
  await page.keyboard.press('Enter');
  await expect(proof).toBeHidden();
  await expect(rows).toHaveCount(1);
  await expect(page.getByText(zh ? '已退出该会话' : 'The session has been signed out')).toBeVisible();
  // Its next request finds no session: reloaded, it lands on the sign-in page.
  await other.page.reload();
  await expect(other.page).toHaveURL(/\/(users|sso)\/login/);
  await other.context.close();

  // The history, newest first: both sign-ins, and the session this page ended.
  await page.reload();
  const history = page.getByTestId('security-history');
  const events = history.getByTestId('security-history-event');
  await expect(events.filter({ hasText: zh ? /^登录成功（密码）$/ : /^Signed in \(Password\)$/ })).toHaveCount(2);
  await expect(
    events.filter({ hasText: zh ? '你退出了其他 1 个会话' : '1 other session signed out by you' }),
  ).toHaveCount(1);
  await expect(events.first()).toHaveAttribute('data-kind', 'session.ended');

  // The filter keeps the sign-ins; the export downloads the same group as CSV.
  await page.getByTestId('security-history-filter').click();
  await (await settled(page.getByRole('option', { name: zh ? '登录' : 'Sign-ins', exact: true }))).click();
  await expect(events.first()).toHaveAttribute('data-kind', /^(sign-in|reauth)\./);
  await expect(events.filter({ hasText: zh ? '你退出了其他' : 'signed out by you' })).toHaveCount(0);
  const exportLink = history.getByRole('link', { name: zh ? /导出 CSV/ : /Export CSV/ });
  const href = await exportLink.getAttribute('href');
  expect(href).toMatch(/\/users\/ajax\/v1\/my\/history\.csv\?group=sign-in$/);
  const csv = await page.request.get(href!);
  expect(csv.status()).toBe(200);
  expect(csv.headers()['content-type']).toMatch(/^text\/csv/);
  expect((await csv.text()).trim().split('\n').length).toBeGreaterThanOrEqual(3);
  await expectNoAxeViolations(page);
});

test('"this wasn\'t me" from a message in the inbox: the other session ends and the token is revoked', async ({
  page,
  browser,
  baseURL,
}, info) => {
  const zh = zhEditions.includes(info.project.name);
  const user = E2E_USERS.securityNotMe;
  const other = await otherBrowser(browser, baseURL!, user);
  await signIn(page, user);
  // A token made "by someone else": the inbox tells of it, with "This wasn't me".
  const html = await (await page.request.get('/users/settings/profile')).text();
  const csrf = /"csrfToken":"([^"]+)"/.exec(html)?.[1];
  expect(csrf, 'the page carries a CSRF token').toBeTruthy();
  const headers = { 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': csrf! };
  const made = await page.request.post('/users/ajax/v1/my/tokens', {
    data: {
      name: 'not mine',
      description: 'made by someone else',
      token_scopes: ['base:user:read'],
      expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    },
    headers,
  });
  expect(made.status(), await made.text()).toBe(200);

  await page.goto('/users/notifications');
  const report = page.getByTestId('inbox-message-not-me').first();
  await expect(report).toHaveText(zh ? '不是我本人' : "This wasn't me");
  await report.click();
  await expect(page).toHaveURL(/\/users\/settings\/security\?not-me=1$/);
  const dialog = await settled(page.getByRole('dialog'));
  await expect(dialog).toContainText(zh ? '吊销所有个人访问令牌' : 'Revoke every personal access token');
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: zh ? '加固账号' : 'Secure my account' }).click();
  const result = dialog.getByTestId('security-not-me-result');
  await expect(result).toContainText(zh ? '已退出其他 1 个会话' : '1 other session signed out');
  await expect(result).toContainText(zh ? '已吊销 1 个个人访问令牌' : '1 personal access token revoked');
  await dialog.getByTestId('security-not-me-close').click();
  await expect(dialog).toBeHidden();
  // Closed, the address no longer opens it.
  await expect(page).toHaveURL(/\/users\/settings\/security$/);
  await expect(sessionRows(page)).toHaveCount(1);

  await other.page.reload();
  await expect(other.page).toHaveURL(/\/(users|sso)\/login/);
  await other.context.close();
  const list = await page.request.post('/users/ajax/v1/my/tokens:search', { data: {}, headers });
  expect(list.status()).toBe(200);
  expect(((await list.json()) as { access_tokens: unknown[] }).access_tokens).toEqual([]);
});

test('the security page by keyboard alone at 375 px', async ({ page, browser, baseURL }, info) => {
  const zh = zhEditions.includes(info.project.name);
  const user = E2E_USERS.securityKeys;
  const other = await otherBrowser(browser, baseURL!, user);
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page, user, SECURITY);
  const rows = sessionRows(page);
  await expect(rows).toHaveCount(2);
  expect(await noHorizontalScroll(page)).toBe(true);
  await expectNoAxeViolations(page);

  // Sign out the other session: Tab to its button, Enter, Tab to the confirmation's button, Enter.
  await page.locator('body').focus();
  await tabTo(page, page.getByTestId('security-session-end'));
  await page.keyboard.press('Enter');
  const ok = page
    .locator('.ant-popconfirm:not(.ant-popover-hidden)')
    .getByRole('button', { name: zh ? /^退出登录$/ : /^Sign out$/ });
  await expect(ok).toBeVisible();
  await tabTo(page, ok);
  await page.keyboard.press('Enter');
  await expect(rows).toHaveCount(1);
  // The button left with its card: the keyboard goes on from the part's title.
  await expect(page.locator('#security-sessions-title')).toBeFocused();
  await other.context.close();

  // The history's filter: Tab to it, open it and choose with the arrows.
  const filter = page.getByRole('combobox', { name: zh ? '显示' : 'Show' });
  await tabTo(page, filter);
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('option', { name: zh ? '登录' : 'Sign-ins', exact: true })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('security-history-filter')).toContainText(zh ? '登录' : 'Sign-ins');
  const events = page.getByTestId('security-history').getByTestId('security-history-event');
  await expect(events.first()).toHaveAttribute('data-kind', /^(sign-in|reauth)\./);
  expect(await noHorizontalScroll(page)).toBe(true);
  await expectNoAxeViolations(page);

  // "This wasn't me" opens from the keyboard, says what it does, and Escape leaves it without doing anything.
  await tabTo(page, page.getByTestId('security-not-me'), { back: true });
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(zh ? '退出其他所有会话' : 'Sign out every other session');
  await tabTo(page, dialog.getByRole('checkbox'));
  await page.keyboard.press('Space');
  await expect(dialog).toContainText(zh ? '在管理员解锁前' : 'Nobody, you included, can sign in');
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(rows).toHaveCount(1);

  // Dark (the account follows the system's shade): antd's dark container behind the page, and still no axe finding.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(20, 20, 20)');
  await expectNoAxeViolations(page);
});
