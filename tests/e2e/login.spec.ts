import { dropSession, E2E_USERS, expect, signInWithForm, test } from './fixtures';

// Sign-in through the real page and service.
test('a wrong password is refused with the catalogue message, then the right one signs in', async ({ page }) => {
  await page.goto('/users/login');
  await page.locator('#username').fill(E2E_USERS.login.username);
  await page.locator('#password').fill('Wrong@pass1');
  await page.locator('button[type="submit"]').click();
  await expect(page.getByRole('alert')).toContainText(/账号或密码错误|Account or password incorrect/);
  await page.locator('#password').fill(E2E_USERS.login.password);
  await page.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/users\/settings\/profile$/);
});

test('after sign-in it follows a safe next URL and ignores a foreign one', async ({ page }) => {
  await signInWithForm(page, E2E_USERS.login, '/users/settings/personalAccessToken');
  await expect(page).toHaveURL(/\/users\/settings\/personalAccessToken$/);
  await dropSession(page);
  await signInWithForm(page, E2E_USERS.login, 'https://evil.example/steal');
  await expect(page).toHaveURL(/\/users\/settings\/profile$/);
});

test('a flagged account must change its password before going on', async ({ page }, info) => {
  test.skip(info.project.name !== 'vpc', 'one edition is enough: the account changes');
  await page.goto('/users/login');
  await page.locator('#username').fill(E2E_USERS.forced.username);
  await page.locator('#password').fill(E2E_USERS.forced.password);
  await page.locator('button[type="submit"]').click();
  // The change-password form replaces the sign-in form (typing before would change the password being sent).
  await expect(page.locator('#confirm')).toBeVisible();
  const fresh = 'Fresh@pass2';
  await page.locator('#password').fill('short');
  await page.locator('#confirm').fill('short');
  await page.locator('button[type="submit"]').click();
  await expect(page.getByText(/至少 8|at least 8/)).toBeVisible();
  await page.locator('#password').fill(fresh);
  await page.locator('#confirm').fill(fresh);
  await page.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/users\/settings\/profile$/);
  await dropSession(page);
  await signInWithForm(page, { username: E2E_USERS.forced.username, password: fresh });
});

test('a sign-in typed and submitted before the scripts arrive completes once they do', async ({ page }) => {
  // The page comes painted: the form is in the HTML, its styles in the nonce'd sheet (the CSP blocks style attributes).
  const served = await (await page.request.get('/users/login')).text();
  expect(served).toMatch(
    /<div id="container"><[\s\S]*<form\b[\s\S]*id="username"[\s\S]*id="password"[\s\S]*type="submit"/,
  );
  expect(served).not.toMatch(/ style="/);

  // The page's scripts are held back until the form has been filled and submitted (a slow phone on a slow network).
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/static/js/**', async (route) => {
    await Promise.all([released, new Promise((resolve) => setTimeout(resolve, 1500))]);
    await route.continue();
  });
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));

  await page.goto('/users/login', { waitUntil: 'domcontentloaded' });
  const container = page.locator('#container');
  await expect(page.locator('label[for="username"]')).toHaveText(/账号|Account/);
  await expect(page.locator('label[for="password"]')).toHaveText(/密码|Password/);
  await expect(page.locator('button[type="submit"]')).toBeVisible();
  await expect(page.locator('button[type="submit"]')).toHaveText(/登\s*录|Sign in/);
  await expect(container).not.toHaveAttribute('data-hydrated');

  await page.locator('#username').fill(E2E_USERS.login.username);
  await page.locator('#password').fill(E2E_USERS.login.password);
  await page.locator('button[type="submit"]').click();
  // Held for the app: not sent by the browser (that would put the password in the URL), still on the page.
  await expect(page.locator('form[data-submit-pending]')).toHaveCount(1);
  await expect(container).not.toHaveAttribute('data-hydrated');
  expect(page.url()).toMatch(/\/users\/login$/);

  release();
  await expect(page).toHaveURL(/\/users\/settings\/profile$/, { timeout: 20_000 });
  // The browser never sent the form itself: the sign-in page was requested once, without the fields in its URL.
  expect(urls.filter((u) => new URL(u).pathname === '/users/login')).toEqual([
    expect.stringMatching(/\/users\/login$/),
  ]);
});
