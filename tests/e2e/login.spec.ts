import {
  dropSession,
  E2E_USERS,
  expect,
  expectAppTookOver,
  holdScripts,
  SCRIPTS_ROUTE,
  signInWithForm,
  test,
} from './fixtures';

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

test('a sign-in typed before the scripts arrive is kept when the app takes the painted page over', async ({ page }) => {
  // The page comes painted: the form is in the HTML the service sends, marked for the app to hydrate.
  const served = await (await page.request.get('/users/login')).text();
  expect(served).toMatch(
    /<div id="container" data-first-screen><[\s\S]*<form\b[\s\S]*id="username"[\s\S]*id="password"[\s\S]*type="submit"/,
  );
  // No field has a name: a form the browser sent itself could never put the password in a URL.
  expect(served).not.toMatch(/<input[^>]* name=/);

  // The page's scripts are held back while the visitor types (a slow phone on a slow network).
  const release = await holdScripts(page);
  await page.goto('/users/login', { waitUntil: 'commit' });
  await expect(page.locator('label[for="username"]')).toHaveText(/账号|Account/);
  await expect(page.locator('button[type="submit"]')).toHaveText(/登\s*录|Sign in/);
  await page.locator('#username').fill(E2E_USERS.login.username);
  await page.locator('#password').fill(E2E_USERS.login.password);

  release();
  await expectAppTookOver(page);
  await page.unroute(SCRIPTS_ROUTE);
  await expect(page.locator('#username')).toHaveValue(E2E_USERS.login.username);
  await page.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/users\/settings\/profile$/, { timeout: 20_000 });
});
