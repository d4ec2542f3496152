import {
  E2E_USERS,
  expect,
  expectAppTookOver,
  expectNoAxeViolations,
  holdScripts,
  SCRIPTS_ROUTE,
  settled,
  signIn,
  test,
} from './fixtures';

// Personal access tokens end to end: the page creates a token, the open API accepts it, deletion revokes it.
const TOKEN_RE = /^pt-[0-9A-Za-z]{46}$/;

test('create with two scopes and a 30-day preset, copy, use on the open API, delete, refused', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  // Several axe passes on a shared 2-core machine: more than the default 30 s.
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
  await signIn(page, E2E_USERS.tokens, '/users/settings/personalAccessToken');
  const panel = page.getByTestId('access-tokens');
  await expect(panel.getByText(/^(暂无访问令牌|No personal access tokens)$/)).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByTestId('token-create').click();
  await expect(page).toHaveURL(/\/users\/settings\/personalAccessToken\/create$/);
  const drawer = await settled(page.getByRole('dialog'));
  // The scopes load when the drawer opens, in the page's language.
  await expect(drawer.getByRole('checkbox', { name: /base:user$/ })).toBeVisible({ timeout: 20_000 });
  await expect(
    drawer.getByRole('checkbox', { name: /^(用户基本信息|Basic user information) base:user$/ }),
  ).toBeVisible();
  const save = page.getByTestId('token-save');
  await expect(save).toBeDisabled();
  await page.locator('#access-token-name').fill('e2e deploy token');
  // A description is required (1 to 200 characters).
  await page.locator('#access-token-description').fill('deploys the e2e build');
  // "Custom" brings the date picker, whose code loads only then; its calendar opens.
  await drawer.getByText(/^(自定义|Custom)$/).click();
  const picker = drawer.getByLabel(/^(过期日期|Expiration date)$/);
  await expect(picker).toBeVisible({ timeout: 20_000 });
  await picker.click();
  await expect(page.locator('.ant-picker-dropdown .ant-picker-cell-today')).toBeVisible();
  await page.keyboard.press('Escape');
  await drawer.getByText(/^(30 天|30 days)$/).click();
  await expect(picker).toBeHidden();
  await expect(save).toBeDisabled();
  await drawer.getByRole('checkbox', { name: /base:user$/ }).check();
  await drawer.getByRole('checkbox', { name: /organization:info$/ }).check();
  await expect(save).toBeEnabled();
  await expectNoAxeViolations(page);
  await save.click();

  // The value shows once, with the hint to keep it.
  const created = page.getByTestId('token-created');
  await expect(created).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/users\/settings\/personalAccessToken$/);
  const token = (await page.getByTestId('token-value').innerText()).trim();
  expect(token).toMatch(TOKEN_RE);
  const row = page.locator('tr', { hasText: 'e2e deploy token' });
  await expect(row).toContainText('organization:info:read');
  await expect(row).toContainText('base:user:read');
  // 30 days ahead, at the end of that day.
  const expiry = new Date(Date.now() + 30 * 24 * 3600 * 1000);
  const ymd = `${expiry.getFullYear()}-${String(expiry.getMonth() + 1).padStart(2, '0')}-${String(expiry.getDate()).padStart(2, '0')}`;
  await expect(row).toContainText(`${ymd} 23:59`);
  await expect(page.getByTestId('token-count')).toHaveText(/^(共 1 个令牌|1 token)$/);
  await expectNoAxeViolations(page);

  await page.getByTestId('token-copy').click();
  await expect(page.getByText(/^(令牌已复制|The token has been copied)$/)).toBeVisible();
  await expect(created).toBeHidden();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

  const me = await request.get('/oapi/v1/platform/user', { headers: { 'x-yunxiao-token': token } });
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ username: E2E_USERS.tokens.username });
  const orgs = await request.get('/oapi/v1/platform/organizations', { headers: { authorization: `Bearer ${token}` } });
  expect(orgs.status()).toBe(200);
  expect((await orgs.json()).organizations.map((o: { name: string }) => o.name)).toContain('E2E Org');
  await page.reload();
  await expect(row).not.toContainText(/从未使用|Never used/);

  await row.getByRole('button', { name: /^(删除|Delete)$/ }).click();
  await page
    .locator('.ant-popconfirm')
    // antd spaces out two-character CJK button labels ("删 除").
    .getByRole('button', { name: /^(删\s?除|Delete)$/ })
    .click();
  await expect(page.getByText(/^(删除成功|Deleted successfully)$/)).toBeVisible();
  await expect(row).toHaveCount(0);
  const refused = await request.get('/oapi/v1/platform/user', { headers: { 'x-yunxiao-token': token } });
  expect(refused.status()).toBe(401);
});

test('comes painted: title, description and list before the scripts, at phone and desktop widths', async ({ page }) => {
  const url = '/users/settings/personalAccessToken';
  await signIn(page, E2E_USERS.tokens, url);
  // The section is in the HTML the service sends, marked for the app to hydrate.
  const served = await (await page.request.get(url)).text();
  expect(served).toMatch(
    /<div id="container" data-first-screen>[\s\S]*<h1[^>]* id="access-tokens-title"[^>]*>(个人访问令牌|Personal access tokens)<\/h1>[\s\S]*(个人访问令牌可让脚本和工具|A personal access token lets scripts and tools)/,
  );
  for (const width of [412, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    // The page's scripts are held back (a slow phone on a slow network): what shows is what the service painted.
    const release = await holdScripts(page);
    await page.goto(url, { waitUntil: 'commit' });
    await expect(page.locator('#access-tokens-title')).toHaveText(/^(个人访问令牌|Personal access tokens)$/);
    await expect(
      page.getByText(/个人访问令牌可让脚本和工具|A personal access token lets scripts and tools/),
    ).toBeVisible();
    await expect(page.getByTestId('token-create')).toBeVisible();
    // The list as a table or as cards, by the window's width, before any script decides.
    const [shown, hidden] = width < 992 ? ['narrow', 'wide'] : ['wide', 'narrow'];
    await expect(page.locator(`.responsive-table-${shown}`)).toBeVisible();
    await expect(page.locator(`.responsive-table-${hidden}`)).toBeHidden();
    release();
    // Hydrated without a mismatch (React would log one: the fixture fails on console errors), one variant left.
    await expectAppTookOver(page);
    await page.unroute(SCRIPTS_ROUTE);
    await expect(page.locator('.responsive-table-wide, .responsive-table-narrow')).toHaveCount(0);
    await expect(page.locator('.ant-table')).toHaveCount(width < 992 ? 0 : 1);
  }
});
