import type { Locator, Page } from '@playwright/test';
import {
  confirmInPopover,
  createTokenOnPage,
  expect,
  expectAppTookOver,
  expectNoAxeViolations,
  holdScripts,
  SCRIPTS_ROUTE,
  signIn,
  test,
} from './fixtures';

// The message center end to end: the product's own security events land in the inbox, the bell counts them, and
// the page reads, selects and deletes them. Each test has its own account (tests/e2e/serve.ts seeds them).
const USERS = {
  flow: { username: 'inbox-flow', password: 'Inbox@pass1' },
  keys: { username: 'inbox-keys', password: 'Inbox@pass1' },
  painted: { username: 'inbox-painted', password: 'Inbox@pass1' },
};

/** The title of the token-created message (an unread one reads "Unread: …" to a screen reader first). */
const TOKEN_CREATED = /(已创建个人访问令牌|Personal access token created)$/;
const bell = (page: Page) => page.getByTestId('inbox-bell');
const messages = (page: Page) => page.getByTestId('inbox-message');

/** The unread count the bell shows as text (0 when it shows none). */
async function bellCount(page: Page): Promise<number> {
  await expect(bell(page)).toBeVisible();
  // One read that does not wait: the badge may go between a count() and an innerText(), which would then wait for
  // an element that is gone past the poll's timeout (seen once in a full run, when the count fell to 0).
  const [text] = await page.getByTestId('inbox-bell-count').allInnerTexts();
  return text === undefined ? 0 : Number(text);
}

/** Creates a personal access token through the tokens page, as a person does (30 days, one scope). */
async function createToken(page: Page, name: string) {
  await createTokenOnPage(page, name, 'made by the inbox spec');
  await expect(page.getByTestId('token-created')).toBeVisible({ timeout: 20_000 });
}

/** Confirms the deletion that asks `question` (antd spaces out two-character CJK labels: "删 除"). */
async function confirmDelete(page: Page, question: RegExp) {
  await confirmInPopover(page, /^(删\s?除|Delete)$/, question);
}

/** Presses Tab (or Shift+Tab) until `target` has the keyboard focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, { back = false, max = 40 } = {}) {
  const handle = await target.elementHandle();
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((el) => el === document.activeElement, handle)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`could not reach ${target} with the keyboard`);
}

test('a created token lands in the inbox; read, batch delete, read all and delete all read', async ({ page }, info) => {
  test.skip(!['vpc', 'global'].includes(info.project.name), 'the inbox is the same in the other editions');
  // Three tokens through the real drawer and two axe passes on a shared 2-core machine.
  test.setTimeout(180_000);
  await signIn(page, USERS.flow);
  const before = await bellCount(page);
  await expect(bell(page)).toHaveAttribute(
    'aria-label',
    new RegExp(`^(消息，${before} 条未读|Messages, ${before} unread)$`),
  );

  await createToken(page, 'inbox first');
  // Back on the list, the bell has already asked again.
  await expect.poll(() => bellCount(page)).toBe(before + 1);

  await bell(page).click();
  await expect(page).toHaveURL(/\/users\/notifications$/);
  await expect(messages(page)).toHaveCount(1);
  const first = messages(page).first();
  await expect(first.getByTestId('inbox-message-title')).toHaveText(TOKEN_CREATED);
  await expect(first.getByTestId('inbox-sensitive')).toHaveText(/^(敏感操作|Sensitive action)$/);
  await expect(first).toHaveAttribute('data-read', 'false');
  await expect(first.getByTestId('inbox-message-body')).toContainText('inbox first');
  await expect(first.getByTestId('inbox-message-time')).toHaveText(/秒钟?前|分钟前|seconds? ago|minutes? ago/);
  // An unread security message cannot be deleted yet.
  await expect(first.getByTestId('inbox-message-delete')).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByTestId('inbox-tab-unread')).toHaveText(/^(未读（1）|Unread \(1\))$/);
  await expectNoAxeViolations(page);

  // Opening it marks it read: the tab and the bell go down at once.
  await first.getByTestId('inbox-message-title').click();
  await expect(first).toHaveAttribute('data-read', 'true');
  await expect(page.getByTestId('inbox-tab-unread')).toHaveText(/^(未读（0）|Unread \(0\))$/);
  await expect.poll(() => bellCount(page)).toBe(before);
  await expect(first.getByTestId('inbox-message-delete')).not.toHaveAttribute('aria-disabled', 'true');

  // Two more messages; the list is newest first.
  await createToken(page, 'inbox second');
  await createToken(page, 'inbox third');
  await expect.poll(() => bellCount(page)).toBe(before + 2);
  await bell(page).click();
  await expect(messages(page)).toHaveCount(3);
  await expect(messages(page).first().getByTestId('inbox-message-body')).toContainText('inbox third');

  // Select the read one and an unread one: the read one goes, the unread security message is kept and said so.
  const oldest = messages(page).nth(2);
  const middle = messages(page).nth(1);
  await oldest.getByRole('checkbox').check();
  await middle.getByRole('checkbox').check();
  await expect(page.getByTestId('inbox-selected-count')).toHaveText(/^(已选 2 条|2 selected)$/);
  await page.getByTestId('inbox-delete-selected').click();
  await confirmDelete(page, /(确定删除选中的 2 条消息吗？|Delete the 2 selected messages\?)/);
  await expect(page.getByText(/^(已删除 1 条消息|1 message deleted)$/)).toBeVisible();
  await expect(
    page.getByText(/^(1 条未读的敏感操作消息未删除|1 unread message about a sensitive action was kept)/),
  ).toBeVisible();
  await expect(messages(page)).toHaveCount(2);
  await expect(page.getByTestId('inbox-tab-all')).toHaveText(/^(全部（2）|All \(2\))$/);

  await page.getByTestId('inbox-read-all').click();
  await expect(page.getByText(/^(已将 2 条消息标为已读|2 messages marked as read)$/)).toBeVisible();
  await expect(messages(page).and(page.locator('[data-read="false"]'))).toHaveCount(0);
  await expect.poll(() => bellCount(page)).toBe(0);

  await page.getByTestId('inbox-delete-read').click();
  await confirmDelete(page, /(确定删除全部已读消息吗？|Delete all read messages\?)/);
  await expect(page.getByTestId('inbox-empty')).toHaveText(/^(暂无消息|No messages)$/);
  await expect(page.getByTestId('inbox-tab-all')).toHaveText(/^(全部（0）|All \(0\))$/);
  await page.getByTestId('inbox-tab-unread').click();
  await expect(page.getByTestId('inbox-empty')).toHaveText(/^(暂无未读消息|No unread messages)$/);
  await expectNoAxeViolations(page);
});

test('the message center works with the keyboard alone on a narrow window', async ({ page }, info) => {
  test.skip(!['vpc', 'global'].includes(info.project.name), 'layout is shared; two editions are enough');
  test.setTimeout(180_000);
  await signIn(page, USERS.keys);
  await createToken(page, 'keyboard token');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/users/settings/profile');
  await expect.poll(() => bellCount(page)).toBe(1);

  // The bell is reached and followed from the keyboard.
  await tabTo(page, bell(page));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/users\/notifications$/);
  const item = messages(page).first();
  await expect(item).toHaveAttribute('data-read', 'false');
  const noHorizontalScroll = () =>
    page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
  expect(await noHorizontalScroll()).toBe(true);
  await expectNoAxeViolations(page);

  // The disabled delete still tells why, on focus.
  await page.locator('body').focus();
  await tabTo(page, item.getByTestId('inbox-message-delete'));
  await expect(page.getByRole('tooltip')).toHaveText(/需先阅读才能删除|can be deleted once it has been read/);

  // Enter on the title opens the message and marks it read.
  await tabTo(page, item.getByTestId('inbox-message-title'), { back: true });
  await page.keyboard.press('Enter');
  await expect(item).toHaveAttribute('data-read', 'true');
  await expect.poll(() => bellCount(page)).toBe(0);

  // Space ticks its checkbox; the batch delete asks first, and Enter confirms.
  await tabTo(page, item.getByRole('checkbox'), { back: true });
  await page.keyboard.press('Space');
  await expect(page.getByTestId('inbox-selected-count')).toHaveText(/^(已选 1 条|1 selected)$/);
  await tabTo(page, page.getByTestId('inbox-delete-selected'), { back: true });
  await page.keyboard.press('Enter');
  const ok = page
    .locator('.ant-popconfirm:not(.ant-popover-hidden)')
    .getByRole('button', { name: /^(删\s?除|Delete)$/ });
  await expect(ok).toBeVisible();
  await tabTo(page, ok);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('inbox-empty')).toHaveText(/^(暂无消息|No messages)$/);
  expect(await noHorizontalScroll()).toBe(true);
  await expectNoAxeViolations(page);
});

test('the message center comes painted; its times follow once the app has it, however late', async ({ page }, info) => {
  test.skip(!['vpc', 'global'].includes(info.project.name), 'painting is shared; two editions are enough');
  test.setTimeout(120_000);
  await signIn(page, USERS.painted);
  await createToken(page, 'painted token');

  // The service sends the page with its first screen: title, description, tabs with the counts and the first page.
  const served = await (await page.request.get('/users/notifications')).text();
  expect(served).toMatch(
    /<div id="container" data-first-screen>[\s\S]*(消息中心|Message center)[\s\S]*(账号的安全事件与企业的通知。|Security events of your account and notices of your organization\.)[\s\S]*data-testid="inbox-message"/,
  );

  // Painted before any script runs (held back: a slow phone on a slow network). The time reads the browser's clock:
  // not in the paint (its place is kept), the app writes it.
  await page.clock.install();
  const release = await holdScripts(page);
  await page.goto('/users/notifications', { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { level: 1, name: /^(消息中心|Message center)$/ })).toBeVisible();
  await expect(
    page.getByText(
      /^(账号的安全事件与企业的通知。|Security events of your account and notices of your organization\.)$/,
    ),
  ).toBeVisible();
  await expect(page.getByTestId('inbox-tab-unread')).toHaveText(/^(未读（1）|Unread \(1\))$/);
  const first = messages(page).first();
  await expect(first.getByTestId('inbox-message-title')).toHaveText(TOKEN_CREATED);
  await expect(first.getByTestId('inbox-message-time')).toBeHidden();
  await expect(page.locator('body')).toHaveAttribute('data-settling');

  // The app arrives a minute and a half later: it takes the paint over as it is (any difference would be a
  // hydration error, which fails the test), then writes the time against its own clock.
  await page.clock.fastForward('01:30');
  release();
  await expectAppTookOver(page);
  await page.unroute(SCRIPTS_ROUTE);
  await expect(first.getByTestId('inbox-message-time')).toBeVisible();
  await expect(first.getByTestId('inbox-message-time')).toHaveText(/^(\d+\s?分钟前|\d+ minutes? ago)$/);
  // It is the app's page now: opening the message marks it read.
  await first.getByTestId('inbox-message-title').click();
  await expect(first).toHaveAttribute('data-read', 'true');
  await expect(page.getByTestId('inbox-tab-unread')).toHaveText(/^(未读（0）|Unread \(0\))$/);
});
