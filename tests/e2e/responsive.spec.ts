import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { dropSession, E2E_USERS, expect, expectNoAxeViolations, signIn, test } from './fixtures';

// Every page at phone, tablet and desktop widths (issue 39, items 1 and 2): nothing wider than the window, no
// sideways scroll, no axe finding, a screenshot of each kept with the test's results; and the narrow side bar and the
// application switcher used by keyboard alone. It runs on vpc (the Chinese family) and global (the English one) only,
// as playwright.config.ts runs feature specs: the layouts are the same in every edition.
test.describe.configure({ timeout: 240_000 });

const USER = E2E_USERS.responsive;
const WIDTHS = [320, 375, 768, 1280] as const;
/**
 * Shades the walk covers: the system's (the account's choice is the default, follow the system). Each page is checked
 * in both at every width without a second visit: it opens in one shade, is checked, then the system's shade changes
 * in place (the dark sheet's media and the app's `useMediaQuery` follow it, as when a person switches the system's
 * theme) and it is checked again. Which shade opens alternates by page and width, so every page also opens painted
 * dark (the service's sheet link, no flash) at two of the four widths.
 */
const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];
/** The settings sections E2E Org's members see (code hosting installed, packages not). */
const SECTIONS: Record<string, string[]> = {
  vpc: ['profile', 'security', 'personalAccessToken', 'ssh', 'third-party'],
  global: ['profile', 'security', 'personalAccessToken', 'ssh'],
};
/** A token name of the allowed maximum, 200 characters with no space to break at. */
const LONG_NAME = `ci-deploy-${'x'.repeat(180)}-long-name`.slice(0, 200);
const SSH_KEY_NAME = 'responsive laptop';
const TOKEN_SCOPES = ['codeup:repository:read', 'codeup:branch:write', 'base:user:read'];

/** Pages a visitor opens signed out, then those of a signed-in member (the edition's sections and the rest). */
const SIGNED_OUT_PAGES = ['/users/login', '/users/resetpassword'];
const signedInPages = (edition: string) => [
  ...(SECTIONS[edition] ?? SECTIONS.vpc).map((key) => `/users/settings/${key}`),
  '/users/settings/personalAccessToken/create',
  '/users/notifications',
  '/users/switch/organization',
  '/users/errors?type=ip-restricted',
];

/** A new ed25519 public key, as ssh-keygen makes it. */
function publicKey(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-responsive-'));
  const file = path.join(dir, 'id');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'responsive@test', '-f', file]);
  const pub = fs.readFileSync(`${file}.pub`, 'utf8').trim();
  fs.rmSync(dir, { recursive: true, force: true });
  return pub;
}

/** The CSRF token a signed-in page carries in its configuration. */
async function csrfOf(request: APIRequestContext): Promise<string> {
  const html = await (await request.get('/users/settings/profile')).text();
  const token = /"csrfToken":"([^"]+)"/.exec(html)?.[1];
  expect(token, 'the page carries a CSRF token').toBeTruthy();
  return token!;
}

/**
 * Gives the account a 200-character token (with three scopes) and an SSH key, once: a rerun finds them there.
 * Through the service's own calls, as the sections make them.
 */
async function seed(request: APIRequestContext, sshKeysPath: string) {
  const login = await request.post('/users/ajax/login', {
    data: { username: USER.username, password: USER.password },
    headers: { 'x-requested-with': 'XMLHttpRequest' },
  });
  expect(login.status()).toBe(200);
  const headers = { 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': await csrfOf(request) };
  const list = await request.post('/users/ajax/v1/my/tokens:search', { data: {}, headers });
  expect(list.status(), await list.text()).toBe(200);
  if (!(await list.text()).includes(LONG_NAME)) {
    const expires = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const made = await request.post('/users/ajax/v1/my/tokens', {
      data: {
        name: LONG_NAME,
        description: `A description as long as the name: ${LONG_NAME}`.slice(0, 200),
        token_scopes: TOKEN_SCOPES,
        expires_at: expires,
      },
      headers,
    });
    expect(made.status(), await made.text()).toBe(200);
  }
  const keys = await request.get(sshKeysPath, { headers });
  expect(keys.status(), await keys.text()).toBe(200);
  if (!(await keys.text()).includes(SSH_KEY_NAME)) {
    const made = await request.post(sshKeysPath, {
      data: { name: SSH_KEY_NAME, key: publicKey(), scope: 'read_only' },
      headers,
    });
    expect(made.status(), await made.text()).toBeLessThan(300);
  }
}

/** A short description of an element for a failure message: tag, id, test id, first classes. */
const DESCRIBE = `(el) => {
  const cls = typeof el.className === 'string' ? el.className.split(' ').slice(0, 2).join('.') : '';
  const testId = el.getAttribute('data-testid');
  return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (testId ? '[' + testId + ']' : '') + (cls ? '.' + cls : '');
}`;

/** What sticks out of the window: the page's scroll width, and every shown element wider than the window. */
async function overflowOf(page: Page) {
  return page.evaluate((describe) => {
    const name = new Function(`return ${describe}`)() as (el: Element) => string;
    const width = window.innerWidth;
    const wide: string[] = [];
    /** The part of `el` that shows: its box cut by every ancestor that clips or scrolls what overflows it. */
    const shownWidth = (el: Element) => {
      const box = el.getBoundingClientRect();
      let left = box.left;
      let right = box.right;
      for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
        if (getComputedStyle(a).overflowX === 'visible') continue;
        const clip = a.getBoundingClientRect();
        left = Math.max(left, clip.left);
        right = Math.min(right, clip.right);
      }
      return right - left;
    };
    for (const el of document.querySelectorAll('body *')) {
      if (el.getBoundingClientRect().width <= width + 0.5 || getComputedStyle(el).visibility === 'hidden') continue;
      const shown = shownWidth(el);
      if (shown > width + 0.5) wide.push(`${name(el)} is ${Math.round(shown)} px`);
    }
    return { width, scrollWidth: document.documentElement.scrollWidth, wide: wide.slice(0, 12) };
  }, DESCRIBE);
}

/**
 * Axe again on the page the last check left, after its shade changed in place: the fixture's settling holds (the app
 * took over, its calls answered, no pointer, popover or toast), so what is left is the new colours' transitions, which
 * the change starts together (and the app's own re-render for the system's shade, within a frame): once they have
 * ended, the colours are final. The axe-core that check put in the page runs again (`axe.run`: no second injection and
 * no blank page to gather the results in, which is most of a check's time). The page has no frame, so the top
 * document is the whole page.
 */
async function expectNoAxeViolationsAfterShadeChange(page: Page) {
  expect(page.frames(), 'the page has no frame axe.run would not reach').toHaveLength(1);
  await page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const moving = () =>
      document
        .getAnimations()
        .filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity);
    // A transition replaced by another rejects `finished`: the loop then waits for the new one.
    for (let running = moving(); running.length; running = moving()) {
      await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
    }
  });
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as { axe?: typeof import('axe-core') };
    if (!axe) return ['axe-core is not in the page: the shade changed before the first check'];
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  expect(violations).toEqual([]);
}

/**
 * Checks the page as it is now, then keeps a screenshot of it (`<edition>-<theme>-<width>-<page>.png`). `switched`:
 * the page was checked in the other shade just before and the system's shade changed since (no navigation).
 */
async function checkPage(page: Page, info: TestInfo, theme: Theme, width: number, url: string, switched = false) {
  // The page is in the shade asked for: antd's container colour behind it (#141414 dark, white light).
  await expect(page.locator('body'), `${url} in the ${theme} shade`).toHaveCSS(
    'background-color',
    theme === 'dark' ? 'rgb(20, 20, 20)' : 'rgb(255, 255, 255)',
  );
  if (switched) await expectNoAxeViolationsAfterShadeChange(page);
  else await expectNoAxeViolations(page, []);
  const overflow = await overflowOf(page);
  expect.soft(overflow.scrollWidth, `${url} at ${width} px: no sideways scroll`).toBeLessThanOrEqual(overflow.width);
  expect.soft(overflow.wide, `${url} at ${width} px: nothing wider than the window`).toEqual([]);
  const slug = url.replace(/^\/users\//, '').replace(/[^a-z0-9]+/gi, '-');
  const file = info.outputPath(`${info.project.name}-${theme}-${width}-${slug}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await info.attach(`${theme} ${width} px ${url}`, { path: file, contentType: 'image/png' });
}

WIDTHS.forEach((width, w) => {
  test(`every page fits ${width} px (light and dark)`, async ({ page, playwright }, info) => {
    const edition = info.project.name;
    const request = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
    await seed(request, edition === 'global' ? '/codeup/api/v3/user/keys' : '/uiless/proxy/codeup/api/v3/user/keys');
    await request.dispose();
    await page.setViewportSize({ width, height: 800 });

    let visits = 0;
    /** Opens `url` in one shade, checks it, switches the system's shade in place and checks it again. */
    const visit = async (url: string, loaded?: () => Promise<void>) => {
      const shades = (visits++ + w) % 2 === 0 ? THEMES : ([...THEMES].reverse() as Theme[]);
      await page.emulateMedia({ colorScheme: shades[0] });
      await page.goto(url);
      await loaded?.();
      await checkPage(page, info, shades[0], width, url);
      await page.emulateMedia({ colorScheme: shades[1] });
      await checkPage(page, info, shades[1], width, url, true);
    };

    for (const url of SIGNED_OUT_PAGES) await visit(url);
    await signIn(page, USER);
    for (const url of signedInPages(edition)) {
      // The list is there. The painted page holds both the table and the cards (CSS hides one) until the section is
      // the app's, which can be after `goto` on a busy machine: the one shown is what counts.
      await visit(url, async () => {
        if (url.endsWith('/personalAccessToken')) {
          await expect(page.getByTestId('token-name').filter({ visible: true }).first()).toBeVisible();
        }
        if (url.endsWith('/ssh')) await expect(page.getByText(SSH_KEY_NAME).filter({ visible: true })).toBeVisible();
      });
    }
    await dropSession(page);
  });
});

test('a long token name is cut at 1280 px, whole on hover and on focus, and the other columns stay in view', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, USER, '/users/settings/personalAccessToken');
  const name = page.getByTestId('token-name').first();
  await expect(name).toBeVisible();
  const box = (await name.boundingBox())!;
  expect(box.width).toBeLessThanOrEqual(320);
  // Every column header is inside the window, beside the cut name.
  for (const header of await page.locator('thead th').all()) {
    const b = (await header.boundingBox())!;
    expect(b.x + b.width).toBeLessThanOrEqual(1280);
  }
  await name.hover();
  await expect(page.getByRole('tooltip').filter({ hasText: LONG_NAME })).toBeVisible();
  await page.mouse.move(0, 0);
  await expect(page.getByRole('tooltip').filter({ hasText: LONG_NAME })).toBeHidden();
  await name.focus();
  await expect(page.getByRole('tooltip').filter({ hasText: LONG_NAME })).toBeVisible();
});

/** Presses Tab until `target` has the focus (as a keyboard user gets there), at most `max` times. */
async function tabTo(page: Page, testId: string, max = 40) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((id) => document.activeElement?.getAttribute('data-testid') === id, testId)) return;
  }
  throw new Error(`Tab never reached ${testId}`);
}

test('at 375 px the side bar is a drawer and the app switcher fits, both used by keyboard alone', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page, USER);
  const toggle = page.getByTestId('sider-drawer-toggle');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByTestId('shell-sider')).toHaveCount(0);

  // The drawer: opened from its button with Enter, the focus kept inside while Tab goes round, Escape closes it and
  // the focus is back on the button.
  await tabTo(page, 'sider-drawer-toggle');
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog');
  await expect(drawer).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const focusInside = () => drawer.evaluate((d) => d.contains(document.activeElement));
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    await expect.poll(focusInside, `Tab ${i + 1} stays in the drawer`).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(toggle).toBeFocused();

  // A section chosen in the drawer by keyboard opens and closes the drawer.
  await page.keyboard.press('Enter');
  await expect(drawer).toBeVisible();
  const menu = drawer.getByRole('menu');
  await menu.focus();
  // The arrow keys move along the entries (antd's menu); Enter on the tokens entry opens it.
  const activeKey = () => page.evaluate(() => document.activeElement?.getAttribute('data-menu-key') ?? null);
  for (let i = 0; i < 4 && (await activeKey()) !== 'personalAccessToken'; i++) {
    const before = await activeKey();
    await page.keyboard.press('ArrowDown');
    await expect.poll(activeKey).not.toBe(before);
  }
  expect(await activeKey()).toBe('personalAccessToken');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/users\/settings\/personalAccessToken$/);
  await expect(drawer).toBeHidden();

  // The app switcher: opened with Enter, the focus on the first tile, Tab to the next, every tile inside the window,
  // Escape closes it with the focus back on its button.
  await tabTo(page, 'app-switcher-button');
  await page.keyboard.press('Enter');
  const apps = page.getByTestId('app-switcher');
  await expect(apps).toBeVisible();
  const tiles = apps.getByRole('link');
  await expect(tiles.first()).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(tiles.nth(1)).toBeFocused();
  for (const tile of await tiles.all()) {
    const b = (await tile.boundingBox())!;
    expect(b.x).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width).toBeLessThanOrEqual(375);
  }
  await page.keyboard.press('Escape');
  await expect(apps).toBeHidden();
  await expect(page.getByTestId('app-switcher-button')).toBeFocused();
});
