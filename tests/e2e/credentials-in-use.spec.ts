import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import {
  ageProofs,
  createTokenOnPage,
  expect,
  expectNoAxeViolations,
  SECTION_AXE_EXCLUDE,
  seedTokens,
  settled,
  signIn,
  test,
  TOKENS_PAGE as TOKENS,
  type E2EAccount,
  type E2ETokenSeed,
} from './fixtures';

// Credentials in use (issue 42) against the real service, on vpc (Chinese, the page's own host in snippets) and global
// (English, the edition's hosts): a new token's curl snippet is copied and pasted, its calls on the open API show in
// the list's last use and in its usage timeline; the security page's credential health marks seeded tokens and
// revokes the stale ones behind re-authentication; a live token is regenerated and an expired one re-created. Each
// test (and each repeat of it) has its own account, which the e2e service makes and whose tokens it replaces at the
// start (seedTokens), so a test starts from the same state every time.
// Ages (30 and 90 days, expiry) are seeded days back on the service's clock: nothing waits.

// Two pages, an axe pass and several calls per test: room for a loaded 2-core machine (each takes 10 to 20 s there).
test.describe.configure({ timeout: 90_000 });

const SECURITY = '/users/settings/security';
const ME = '/oapi/v1/platform/user';
const ORGS = '/oapi/v1/platform/organizations';
/** A CI job's client, as the timeline shows it. */
const CI_AGENT = 'ci-runner/3.2 (e2e credentials-in-use)';
/** A terminal's curl, for the pasted snippet's call. */
const CURL_AGENT = 'curl/8.5.0';
/** The hosts the global edition names for its snippets (editions/global.json). */
const GLOBAL_OPEN_API = 'https://openapi-rdc.alibabacloud.com';

/** The editions whose pages speak Chinese (the others here speak English). */
const zhProjects = new Set(['vpc']);

/**
 * The test's own account, one per repeat (`--repeat-each` runs the copies at once, in two workers): the e2e service
 * makes it on the first seedTokens.
 */
function ownAccount(name: string, info: TestInfo): E2EAccount {
  const repeat = info.repeatEachIndex ? `-r${info.repeatEachIndex}` : '';
  return { username: `${name}${repeat}`, name: `${name} user`, password: 'CredUse@pass1' };
}

/** An open-API call with `token` from a client outside the browser. */
const callOpenApi = (request: APIRequestContext, token: string, path: string, agent: string) =>
  request.get(path, { headers: { 'x-yunxiao-token': token, 'user-agent': agent } });

/** The list's row of the token called `name` (the list is a table at the test's desktop width). */
const tokenRow = (page: Page, name: string) =>
  page
    .getByTestId('access-tokens')
    .getByRole('row')
    .filter({ has: page.getByTestId('token-name').getByText(name, { exact: true }) });

test('a new token: its curl snippet is copied and pasted, its last use and usage timeline show the calls with the address and client', async ({
  page,
  context,
  request,
  baseURL,
}, info) => {
  const user = ownAccount('cred-uses', info);
  const zh = zhProjects.has(info.project.name);
  await seedTokens(baseURL!, user, []);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
  await signIn(page, user);

  const name = 'CI deploy';
  await createTokenOnPage(page, name, 'deploys from CI');
  const token = (await page.getByTestId('token-value').innerText()).trim();
  expect(token).toMatch(/^pt-/);

  // Ready to paste, under the one-time display: git over HTTPS first, then curl.
  const snippets = page.getByRole('group', { name: zh ? '即贴即用' : 'Ready to paste' });
  await expect(snippets.getByRole('tab')).toHaveText([zh ? 'git（HTTPS）' : 'git over HTTPS', 'curl']);
  await expect(snippets.getByRole('tabpanel')).toContainText(`password=${token}`);
  await expect(snippets.getByRole('tabpanel')).toContainText(
    zh ? `host=${new URL(baseURL!).host}` : 'host=codeup.alibabacloud.com',
  );
  await snippets.getByRole('tab', { name: 'curl' }).click();
  await snippets.getByRole('button', { name: zh ? '复制 curl' : 'Copy curl' }).click();
  await expect(snippets.getByRole('status')).toHaveText(zh ? '已复制' : 'Copied');
  const pasted = await page.evaluate(() => navigator.clipboard.readText());
  // A private deployment's open API is the page's own host; global names its own.
  expect(pasted).toBe(`curl -H 'x-yunxiao-token: ${token}' ${zh ? baseURL : GLOBAL_OPEN_API}${ME}`);

  // The pasted call (to this service: the snippet's header and path), then a call the token's scope does not cover.
  const [, headerName, headerValue, url] = /^curl -H '([^:]+): ([^']+)' (\S+)$/.exec(pasted)!;
  const me = await request.get(new URL(url).pathname, {
    headers: { [headerName]: headerValue, 'user-agent': CURL_AGENT },
  });
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ username: user.username });
  expect((await callOpenApi(request, token, ORGS, CI_AGENT)).status()).toBe(403);

  // The list: the last use with its address.
  await page.reload();
  const row = tokenRow(page, name);
  await expect(row.getByTestId('token-last-use')).toContainText('127.0.0.1');

  // The timeline: newest first, the refusal (and why), then the pasted call; each with its action, address, client.
  await row.getByRole('button', { name: zh ? `${name} 的使用记录` : `Usage of ${name}` }).click();
  const timeline = page.getByRole('dialog', { name: zh ? `${name} 的使用记录` : `Uses of ${name}` });
  const uses = timeline.getByTestId('credential-use');
  await expect(uses).toHaveCount(2);
  await expect(uses.nth(0).getByTestId('use-outcome')).toHaveText(
    zh ? '已拒绝：未授予该权限' : 'Refused: permission not granted',
  );
  await expect(uses.nth(0)).toContainText(`GET ${ORGS}`);
  await expect(uses.nth(0).getByTestId('use-address')).toHaveText('127.0.0.1');
  await expect(uses.nth(0).getByTestId('use-client')).toHaveText(CI_AGENT);
  await expect(uses.nth(1).getByTestId('use-outcome')).toHaveText(zh ? '已放行' : 'Allowed');
  await expect(uses.nth(1)).toContainText(`GET ${ME}`);
  await expect(uses.nth(1).getByTestId('use-address')).toHaveText('127.0.0.1');
  await expect(uses.nth(1).getByTestId('use-client')).toHaveText(CURL_AGENT);
  await expect(timeline).toContainText(zh ? '最近 90 天内没有更早的记录' : 'No older uses in the last 90 days');
  // The drawer as a person sees it; the list behind its mask is access-tokens.spec.ts's to check (axe measures links
  // dimmed by the mask, or under the panel, against the page: a finding no one can see).
  await expectNoAxeViolations(page, [...SECTION_AXE_EXCLUDE, '[data-testid="access-tokens"]']);
});

test('credential health: seeded tokens carry their marks, the history names a refused use, "revoke all stale" asks for the password and takes only the stale', async ({
  page,
  request,
  baseURL,
}, info) => {
  const user = ownAccount('cred-health', info);
  const zh = zhProjects.has(info.project.name);
  const scopes = ['base:user:read'];
  const seeds: E2ETokenSeed[] = [
    { name: 'old build', scopes, createdDaysAgo: 120, expiresInDays: null },
    { name: 'nightly sync', scopes, createdDaysAgo: 60, usedDaysAgo: 40, expiresInDays: 200 },
    { name: 'legacy deploy', scopes, createdDaysAgo: 20, usedDaysAgo: 10, expiresInDays: -1 },
    { name: 'release', scopes, createdDaysAgo: 10, expiresInDays: 3 },
    { name: 'daily', scopes, createdDaysAgo: 5, expiresInDays: 60 },
  ];
  const seeded = Object.fromEntries((await seedTokens(baseURL!, user, seeds)).map((t) => [t.name, t.token]));
  // "daily" is used now; the expired "legacy deploy" is refused (its refusal goes to the security history).
  expect((await callOpenApi(request, seeded.daily, ME, CI_AGENT)).status()).toBe(200);
  expect((await callOpenApi(request, seeded['legacy deploy'], ME, CI_AGENT)).status()).toBe(401);
  await signIn(page, user, SECURITY);

  const health = page.getByRole('region', { name: zh ? '凭证健康' : 'Credential health' });
  const row = (name: string) =>
    health.getByRole('row').filter({ has: page.getByTestId('security-health-name').getByText(name, { exact: true }) });
  const marks = (name: string) => row(name).getByTestId('security-health-mark');
  await expect(marks('old build')).toHaveText(
    zh ? ['90 天以上未使用', '从未使用'] : ['Unused for 90+ days', 'Never used'],
  );
  await expect(marks('nightly sync')).toHaveText([zh ? '30 天以上未使用' : 'Unused for 30+ days']);
  await expect(marks('legacy deploy')).toHaveText([zh ? '已过期' : 'Expired']);
  await expect(marks('release')).toHaveText(zh ? ['7 天内过期', '从未使用'] : ['Expires within 7 days', 'Never used']);
  await expect(marks('daily')).toHaveCount(0);
  await expect(row('daily')).toContainText('127.0.0.1');
  await expect(health.getByTestId('security-health-stale-count')).toHaveText(
    zh ? '3 个闲置凭证' : '3 stale credentials',
  );
  await expect(page.getByTestId('security-history-event').filter({ hasText: 'legacy deploy' }).first()).toHaveText(
    zh
      ? `个人访问令牌“legacy deploy”被拒绝：凭证已过期（GET ${ME}）`
      : `Personal access token “legacy deploy” refused: the credential has expired (GET ${ME})`,
  );
  await expectNoAxeViolations(page);

  // The session's proof has aged: revoking asks for the password first, then goes through.
  await ageProofs(baseURL!, user.username);
  await health.getByRole('button', { name: zh ? '吊销全部闲置凭证（3）' : 'Revoke all stale (3)' }).click();
  const confirm = await settled(
    page.getByRole('dialog', { name: zh ? '吊销 3 个闲置凭证？' : 'Revoke 3 stale credentials?' }),
  );
  await expect(confirm.getByRole('listitem')).toHaveText(['legacy deploy', 'nightly sync', 'old build']);
  await confirm.getByRole('button', { name: zh ? /^吊\s?销$/ : 'Revoke' }).click();
  const proof = page.getByTestId('core-reauth');
  await expect(proof).toBeVisible({ timeout: 15_000 });
  await page.getByTestId('core-reauth-password').fill(user.password);
  await page.keyboard.press('Enter');
  await expect(proof).toBeHidden();
  await expect(
    page.locator('.ant-message').getByText(zh ? '已吊销 3 个闲置凭证' : '3 stale credentials revoked'),
  ).toBeVisible();
  await expect(confirm).toBeHidden();

  // What is left: the two not stale, and nothing stale; the revoked tokens no longer open the API.
  await expect(health.getByTestId('security-health-nothing-stale')).toBeVisible();
  for (const gone of ['old build', 'nightly sync', 'legacy deploy']) await expect(row(gone)).toHaveCount(0);
  await expect(row('release')).toHaveCount(1);
  await expect(row('daily')).toHaveCount(1);
  await expect(health.getByRole('button', { name: /吊销全部闲置凭证|Revoke all stale/ })).toHaveCount(0);
  expect((await callOpenApi(request, seeded['old build'], ME, CI_AGENT)).status()).toBe(401);
  expect((await callOpenApi(request, seeded.daily, ME, CI_AGENT)).status()).toBe(200);
  await expect(
    page
      .getByTestId('security-history-event')
      .filter({ hasText: zh ? '已吊销 3 个闲置凭证' : '3 stale credentials revoked' }),
  ).not.toHaveCount(0);
});

test('regenerate a live token with an hour of grace, re-create an expired one (after the password) with what changed', async ({
  page,
  request,
  baseURL,
}, info) => {
  const user = ownAccount('cred-renew', info);
  const zh = zhProjects.has(info.project.name);
  const seeded = Object.fromEntries(
    (
      await seedTokens(baseURL!, user, [
        { name: 'deploy bot', scopes: ['base:user:read'], createdDaysAgo: 10, usedDaysAgo: 1, expiresInDays: 20 },
        // A grant the catalogue no longer offers: re-creating leaves it out and says so.
        {
          name: 'old importer',
          scopes: ['base:user:read', 'codeup:wiki:read'],
          createdDaysAgo: 100,
          expiresInDays: -3,
        },
      ])
    ).map((t) => [t.name, t.token]),
  );
  await signIn(page, user, TOKENS);

  // Regenerate: the old secret keeps working for the hour picked, listed as replaced, without edit or regenerate.
  await tokenRow(page, 'deploy bot')
    .getByRole('button', { name: zh ? '重新生成' : 'Regenerate' })
    .click();
  const regenerate = await settled(
    page.getByRole('dialog', { name: zh ? '重新生成令牌“deploy bot”' : 'Regenerate the token “deploy bot”' }),
  );
  await regenerate.getByRole('radio', { name: zh ? '1 小时后' : 'After 1 hour' }).check();
  await expect(regenerate.getByTestId('token-renew-warning')).toContainText(
    zh ? '当前密钥可继续使用至' : 'The current secret keeps working until',
  );
  await regenerate.getByRole('button', { name: zh ? '重新生成' : 'Regenerate' }).click();
  await expect(regenerate).toBeHidden();
  const regenerated = (await page.getByTestId('token-value').innerText()).trim();
  expect(regenerated).toMatch(/^pt-/);
  expect(regenerated).not.toBe(seeded['deploy bot']);
  await expect(page.getByTestId('token-renewal-note')).toContainText(
    zh ? '原密钥可继续使用至' : 'The old secret keeps working until',
  );
  await expect(page.getByRole('group', { name: zh ? '即贴即用' : 'Ready to paste' })).toContainText(regenerated);
  const bots = page.getByTestId('access-tokens').getByRole('row').filter({ hasText: 'deploy bot' });
  await expect(bots).toHaveCount(2);
  const old = bots.filter({ has: page.getByTestId('token-replaced') });
  await expect(old.getByTestId('token-replaced')).toHaveText(zh ? '已替换' : 'Replaced');
  await expect(old.getByRole('button', { name: /重新生成|Regenerate|编辑|Edit/ })).toHaveCount(0);
  expect((await callOpenApi(request, regenerated, ME, CI_AGENT)).status()).toBe(200);
  expect((await callOpenApi(request, seeded['deploy bot'], ME, CI_AGENT)).status()).toBe(200);

  // Re-create: the dialog says what changes (the grant left out) before; the session's proof has aged, so the
  // password is asked first; the token is back with its kept scope and a new secret that works.
  await ageProofs(baseURL!, user.username);
  const expired = tokenRow(page, 'old importer');
  await expect(expired.getByTestId('token-expired')).toHaveText(zh ? '已过期' : 'Expired');
  await expired.getByRole('button', { name: zh ? '重新创建' : 'Re-create' }).click();
  const recreate = await settled(
    page.getByRole('dialog', {
      name: zh ? '重新创建已过期的令牌“old importer”' : 'Re-create the expired token “old importer”',
    }),
  );
  await expect(recreate.getByTestId('token-renew-dropped')).toHaveText('codeup:wiki:read');
  await recreate.getByRole('button', { name: zh ? '重新创建' : 'Re-create' }).click();
  const proof = page.getByTestId('core-reauth');
  await expect(proof).toBeVisible({ timeout: 15_000 });
  // The call made again after the proof: its status says why, should the dialog stay (CI once saw it stay).
  const again = page.waitForResponse(
    (r) => r.request().method() === 'POST' && r.url().endsWith('/recreate') && r.status() !== 403,
  );
  await page.getByTestId('core-reauth-password').fill(user.password);
  await page.keyboard.press('Enter');
  await expect(proof).toBeHidden();
  expect((await again).status()).toBe(200);
  await expect(recreate).toBeHidden();
  const recreated = (await page.getByTestId('token-value').innerText()).trim();
  await expect(page.getByTestId('token-renewal-note')).toContainText(
    zh ? '已不再提供的权限范围未保留：codeup:wiki:read' : 'A scope no longer offered was left out: codeup:wiki:read',
  );
  const back = tokenRow(page, 'old importer');
  await expect(back).toHaveCount(1);
  await expect(back.getByTestId('token-expired')).toHaveCount(0);
  await expect(back).toContainText('base:user:read');
  await expect(back).not.toContainText('codeup:wiki:read');
  expect((await callOpenApi(request, recreated, ME, CI_AGENT)).status()).toBe(200);
  expect((await callOpenApi(request, seeded['old importer'], ME, CI_AGENT)).status()).toBe(401);
});
