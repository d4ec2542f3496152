import { E2E_USERS, expect, expectNoAxeViolations, settled, signIn, test } from './fixtures';

// The frame a signed-in user sees, per edition: menu rules, redirects, fallback, side bar, language.
const zhEditions = ['vpc', 'aliyun', 'dedicated'];
const menus: Record<string, string[]> = {
  // E2E Org has code hosting but not packages: SSH shows, the artifact credential does not.
  default: ['profile', 'security', 'personalAccessToken', 'ssh', 'third-party'],
  global: ['profile', 'security', 'personalAccessToken', 'ssh'],
};
const titles = { zh: '个人设置', en: 'Personal settings' };

test('signs in through the login page and shows the edition’s settings shell', async ({ page }, info) => {
  const edition = info.project.name;
  const zh = zhEditions.includes(edition);
  await signIn(page, E2E_USERS.shell);
  await expect(page).toHaveURL(/\/users\/settings\/profile$/);
  await expect(page.locator('html')).toHaveAttribute('lang', zh ? 'zh-CN' : 'en');
  await expect(page.locator('#settings-title')).toHaveText(zh ? titles.zh : titles.en);
  const keys = await page
    .locator('[data-menu-key]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-menu-key')));
  expect(keys).toEqual(menus[edition] ?? menus.default);

  // An unknown sidebar key lands on the first permitted section.
  await page.goto('/users/settings/no-such-section');
  await expect(page).toHaveURL(/\/users\/settings\/profile$/);
  // A section the menu rule hides is not reachable by URL either.
  await page.goto('/users/settings/packagesCredential');
  await expect(page).toHaveURL(/\/users\/settings\/profile$/);

  // Any unknown path, under /users/ or elsewhere (a relative help link), is a 404 showing the not-found page in the
  // frame: the top bar with the account stays.
  for (const path of ['/users/no/such/page', '/docs/']) {
    const res = await page.goto(path);
    expect(res!.status(), path).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: zh ? '页面不存在' : 'Page not found' })).toBeVisible();
    await expect(page.locator('header.shell-top-bar')).toBeVisible();
    // The account's menu (its avatar): only a signed-in member's bar has it.
    await expect(page.locator('header.shell-top-bar .ant-avatar')).toBeVisible();
    await expect(page.getByTestId('error-illustration')).toBeVisible();
  }
});

test('the side bar closes below 1280 px and can be toggled', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, E2E_USERS.shell);
  const sider = page.getByTestId('shell-sider');
  await expect(sider).toHaveAttribute('data-collapsed', 'false');
  await page.setViewportSize({ width: 1279, height: 800 });
  await expect(sider).toHaveAttribute('data-collapsed', 'true');
  await page.getByTestId('sider-toggle').click();
  await expect(sider).toHaveAttribute('data-collapsed', 'false');
  await page.setViewportSize({ width: 1400, height: 800 });
  // Let the resize event dispatch before the next change, or the browser may coalesce both into one.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.setViewportSize({ width: 1000, height: 800 });
  await expect(sider).toHaveAttribute('data-collapsed', 'true');
});

test('switching language changes the page at once and is remembered', async ({ page }, info) => {
  const zh = zhEditions.includes(info.project.name);
  await signIn(page, E2E_USERS.shell);
  const title = page.locator('#settings-title');
  await expect(title).toHaveText(zh ? titles.zh : titles.en);
  await page.getByTestId('language-switch').click();
  await (await settled(page.getByRole('menuitem', { name: zh ? 'English' : '简体中文' }))).click();
  await expect(title).toHaveText(zh ? titles.en : titles.zh);
  await expect(page.locator('html')).toHaveAttribute('lang', zh ? 'en' : 'zh-CN');
  await page.reload();
  await expect(title).toHaveText(zh ? titles.en : titles.zh);
  await page.getByTestId('language-switch').click();
  await (await settled(page.getByRole('menuitem', { name: zh ? '简体中文' : 'English' }))).click();
  await expect(title).toHaveText(zh ? titles.zh : titles.en);
});

test('when app permissions fail to load, a full-page result offers a retry that reloads', async ({ page }, info) => {
  test.skip(info.project.name !== 'vpc', 'the rule is edition-independent');
  await signIn(page, E2E_USERS.shell);
  // The page brings its apps in its bootstrap; a page without one (an older service, a stale cache) asks for them.
  await page.route('**/users/settings/**', async (route) => {
    if (route.request().resourceType() !== 'document') return route.fallback();
    const res = await route.fetch();
    const html = (await res.text()).replace(
      /(<script[^>]*id="page-config"[^>]*>)([\s\S]*?)(<\/script>)/,
      (_m, open: string, json: string, close: string) => {
        const config = JSON.parse(json) as Record<string, unknown>;
        delete config.bootstrap;
        return open + JSON.stringify(config).replace(/</g, '\\u003c') + close;
      },
    );
    // The body is sent decoded: the original encoding headers would no longer describe it.
    const headers = res.headers();
    delete headers['content-encoding'];
    delete headers['content-length'];
    await route.fulfill({ status: res.status(), headers, body: html });
  });
  await page.route('**/uiless/api/apps:search', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: '{"status":500,"requestId":"r1","code":"SystemError","message":"x"}',
    }),
  );
  // antd's root arrives late: the ≥500 notice still waits for it (themed, with the page nonce: no CSP violation).
  await page.route('**/static/js/async/antd-root.*', async (route) => {
    await new Promise((r) => setTimeout(r, 800));
    await route.fallback();
  });
  await page.reload();
  await expect(page.locator('.ant-result-title')).toHaveText('系统异常，请重试');
  await page.unroute('**/static/js/async/antd-root.*');
  await expect(page.locator('[data-menu-key]')).toHaveCount(0);
  await page.unroute('**/uiless/api/apps:search');
  await page.unroute('**/users/settings/**');
  await page
    .getByRole('button', { name: '重 试' })
    .or(page.getByRole('button', { name: '重试' }))
    .click();
  await expect(page.locator('[data-menu-key="ssh"]')).toBeVisible();
});

test('the shell (header, menu, footer, error page) has no axe violations in the edition’s colours', async ({
  page,
}) => {
  await signIn(page, E2E_USERS.shell);
  await expect(page.locator('[data-menu-key]').first()).toBeVisible();
  // The whole page, footer and side menu included.
  await expectNoAxeViolations(page, []);
  await page.goto('/users/errors?type=ip-restricted');
  await expect(page.locator('.ant-result-title')).toBeVisible();
  await expectNoAxeViolations(page, []);
  // The not-found page in the frame, its drawing in the edition's colours.
  await page.goto('/users/no-such-page');
  await expect(page.getByTestId('error-illustration')).toBeVisible();
  await expectNoAxeViolations(page, []);
});

test('each page names in its document exactly the lazy files its first render loads, each fetched once', async ({
  browser,
}, info) => {
  const edition = info.project.name;
  // The lists are built the same way for every edition (only the menu differs): vpc and global are enough.
  test.skip(edition !== 'vpc' && edition !== 'global', 'runs on vpc and global');
  test.setTimeout(120_000); // up to seven fresh page loads, on busy CI cores
  const { baseURL } = info.project.use;
  /** Opens `path` in a fresh browser context (empty cache), and compares what the document names with what loads. */
  const check = async (path: string, signedIn: boolean) => {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    if (signedIn) {
      // The sign-in call only (no page of its own), so nothing but the page under test loads in this context.
      const a = await context.request.post('/users/ajax/login', {
        data: { username: E2E_USERS.shell.username, password: E2E_USERS.shell.password },
        headers: { 'x-requested-with': 'XMLHttpRequest' },
      });
      expect(a.status()).toBe(200);
    }
    const lazy: string[] = [];
    page.on('request', (req) => {
      const { pathname } = new URL(req.url());
      if (/^\/static\/(js|css)\/async\//.test(pathname)) lazy.push(pathname);
    });
    const res = await page.goto(path);
    const html = await res!.text();
    // As attributes, or (a server-rendered page) in the list its inline loader adds after the first paint.
    const named = [...new Set([...html.matchAll(/"(\/static\/(?:js|css)\/async\/[^"]+)"/g)].map((m) => m[1]))];
    expect(named.length, `${path} names its lazy files`).toBeGreaterThan(10);
    // Not 'networkidle' (a busy machine may never give it 500 quiet ms in time): wait until every named file has
    // been fetched and the page has rendered, then give a late extra file a moment to show up.
    await expect.poll(() => named.filter((f) => !lazy.includes(f)), { timeout: 45_000 }).toEqual([]);
    await expect(page.locator('#container > :not(link)').first()).toBeVisible();
    await page.waitForTimeout(1000);
    expect(new Set(lazy), path).toEqual(new Set(named));
    expect(lazy.length, `${path}: no file fetched twice`).toBe(new Set(lazy).size);
    await context.close();
  };
  await check('/users/login', false);
  for (const key of menus[edition] ?? menus.default) await check(`/users/settings/${key}`, true);
  await check('/users/notifications', true);
  await check('/users/no-such-page', true);
});
