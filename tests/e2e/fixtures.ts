import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type ConsoleMessage, type Locator, type Page, type Response } from '@playwright/test';
import * as OTPAuth from 'otpauth';

/** A console error a test may meet, and why. */
export interface ExpectedConsoleError {
  /** Path of the request that fails (Chromium logs "Failed to load resource: … status of <status>" for it). */
  path: RegExp;
  status: number;
  /** Spec files where it happens; any spec when absent. */
  specs?: string[];
  why: string;
}

/**
 * Console errors a test may meet because the product answers as it should: Chromium logs every 4xx answer to a
 * fetch or a navigation as "Failed to load resource", and these specs provoke such answers on purpose. Anything not
 * listed here fails the test.
 */
export const EXPECTED_CONSOLE_ERRORS: readonly ExpectedConsoleError[] = [
  {
    path: /^\/api\/logs$/,
    status: 429,
    why:
      'usage logs are limited per client address and minute (server/routes/logs.ts); every e2e browser posts from ' +
      '127.0.0.1, so the collector refuses some batches, which the tracker keeps and sends later (sender.ts)',
  },
  {
    path: /^\/uiless\/api\/apps:search$/,
    status: 500,
    specs: ['shell.spec.ts'],
    why: 'the shell spec answers the apps call with a 500 to see the full-page retry',
  },
  {
    path: /^\/users\/ajax\/login$/,
    status: 401,
    specs: ['login.spec.ts', 'recovery.spec.ts', 'sign-in-sources.spec.ts'],
    why: 'a wrong password is typed on purpose (refused sign-in, then the slider after two failures)',
  },
  {
    path: /^\/users\/ajax\/login\/second-factor$/,
    status: 401,
    specs: ['two-factor.spec.ts'],
    why: "a wrong authenticator code is typed at the sign-in's second step on purpose, which says so",
  },
  {
    path: /^\/users\/ajax\/users\/[^/]+\/check$/,
    status: 404,
    specs: ['recovery.spec.ts'],
    why: 'recovery is asked for an account that does not exist',
  },
  {
    path: /^\/users\/ajax\/users\/[^/]+\/emailCaptcha:verify$/,
    status: 400,
    specs: ['recovery.spec.ts'],
    why: 'a wrong mailed code is typed on purpose, five times',
  },
  {
    path: /^\/users\/ajax\/users\/[^/]+\/password:reset$/,
    status: 400,
    specs: ['recovery.spec.ts'],
    why: 'the last step is sent with a ticket made stale on purpose',
  },
  {
    path: /^\/individual\/proxy\/my\/email:verify$/,
    status: 400,
    specs: ['profile.spec.ts'],
    why: 'the activation link is opened a second time, and refused',
  },
  {
    path: /^\/users\/ajax\/v1\/my\/(tokens|emails:rebind)$/,
    status: 403,
    specs: ['reauth.spec.ts', 'profile.spec.ts'],
    why:
      'a sensitive call of a session whose proof was aged on purpose answers ReauthRequired: the core asks for the ' +
      'password and repeats the call',
  },
  {
    path: /^\/users\/ajax\/v1\/my\/sessions\/[^/]+$/,
    status: 403,
    specs: ['security.spec.ts'],
    why:
      'another session is signed out by a session whose proof was aged on purpose: ReauthRequired, the core asks ' +
      'for the password and repeats the call',
  },
  {
    path: /^\/users\/ajax\/v1\/my\/(credential-health:revoke-stale|tokens\/[^/]+\/(regenerate|recreate))$/,
    status: 403,
    specs: ['credentials-in-use.spec.ts'],
    why:
      'revoking the stale credentials, regenerating or re-creating a token from a session whose proof was aged on ' +
      'purpose answers ReauthRequired: the core asks for the password and repeats the call',
  },
  {
    path: /^\/users\/ajax\/v1\/my\/reauth$/,
    status: 400,
    specs: ['reauth.spec.ts', 'profile.spec.ts'],
    why: 'a wrong password is given to the re-authentication dialog on purpose, which says so',
  },
  {
    path: /\/api\/v3\/user\/keys$/,
    status: 409,
    specs: ['credentials.spec.ts'],
    why: 'the same SSH key is added twice; the conflict is explained in the dialog',
  },
  {
    path: /^\/uiless\/apps\/packages$/,
    status: 404,
    specs: ['organizations.spec.ts'],
    why: 'the entry guard is opened for an app the organisation has not installed',
  },
  {
    path: /^\/(users\/no[-/]such[-/]page|docs\/)$/,
    status: 404,
    specs: ['shell.spec.ts'],
    why: 'unknown paths are opened on purpose: the document answers 404 and shows the not-found page',
  },
  {
    path: /^\/codeup\/$/,
    status: 404,
    specs: ['organizations.spec.ts'],
    why: "the entry guard sends the browser to the app's own address, which the e2e service does not serve",
  },
  {
    path: /^\/favicon\.ico$/,
    status: 404,
    specs: ['sign-in-sources.spec.ts'],
    why: "the test OAuth provider's own pages (oidc-provider's development login and consent) have no favicon",
  },
];

/** Why a console error is expected in `spec` (see EXPECTED_CONSOLE_ERRORS), or undefined when it is a failure. */
export function expectedConsoleError(text: string, url: string, spec: string): string | undefined {
  const status = /^Failed to load resource: the server responded with a status of (\d{3})\b/.exec(text)?.[1];
  if (!status || !url) return undefined;
  const { pathname } = new URL(url);
  return EXPECTED_CONSOLE_ERRORS.find(
    (e) => e.status === Number(status) && e.path.test(pathname) && (!e.specs || e.specs.includes(spec)),
  )?.why;
}

/** Reports a blocked resource or inline style/script the way Chromium does, with where it happened. */
function reportCspViolations() {
  document.addEventListener('securitypolicyviolation', (e) => {
    console.error(
      `CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`,
    );
  });
}

/**
 * Every spec's `test`: Playwright's, with a guard on each page of the test's browser context — any console error,
 * uncaught page error or CSP violation fails the test, except the expected 4xx answers listed above.
 */
export const test = base.extend({
  context: async ({ context }, use, testInfo) => {
    const problems: string[] = [];
    const watch = (page: Page) => {
      page.on('console', (msg: ConsoleMessage) => {
        if (msg.type() !== 'error') return;
        const where = msg.location().url;
        if (expectedConsoleError(msg.text(), where, path.basename(testInfo.file))) return;
        problems.push(`console error on ${page.url()}: ${msg.text()}${where ? ` (${where})` : ''}`);
      });
      page.on('pageerror', (err) => problems.push(`uncaught error on ${page.url()}: ${err.message}`));
    };
    await context.addInitScript(reportCspViolations);
    context.pages().forEach(watch);
    context.on('page', watch);
    await use(context);
    if (problems.length) {
      await testInfo.attach('console-errors', { body: problems.join('\n'), contentType: 'text/plain' });
    }
    expect(problems, 'console errors, page errors and CSP violations').toEqual([]);
  },
  // Pages come painted, and a click or a key before the app has a page is lost (a form submits natively): a person
  // acts once the page answers, so `goto` and `reload` resolve once the app took the page over. A test that looks at
  // the paint itself, before any script, navigates with `waitUntil: 'commit'` and waits for nothing more.
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    const settled = async <T>(navigation: Promise<T>, options?: { waitUntil?: string }) => {
      const response = await navigation;
      if (options?.waitUntil !== 'commit') await expectAppTookOver(page, 20_000);
      return response;
    };
    page.goto = (url, options) => settled(goto(url, options), options);
    page.reload = (options) => settled(reload(options), options);
    await use(page);
  },
});

export { expect };

/** The organisation every e2e service starts with: code hosting installed, packages not. */
export const E2E_ORG = { name: 'E2E Org', apps: ['codeup'] };

/** A second organisation with the packages app, for the artifact-credential spec (its user works in it). */
export const E2E_PACKAGES_ORG = { name: 'E2E Packages Org', apps: ['codeup', 'packages'] };

/** Organisations of the organisation spec: an IP whitelist that excludes loopback, and a licence that has expired. */
export const E2E_POLICY_ORGS = {
  blocked: { name: 'E2E Blocked Org', apps: ['codeup'], ipWhitelist: ['10.0.0.0/8', '2001:db8::/32'] },
  expired: { name: 'E2E Expired Org', apps: ['codeup'], licenceExpiresAt: '2020-01-31' },
  /** Requires a second factor of its members, with no grace left (org-second-factor.spec.ts). */
  twoFactor: { name: 'E2E Two-Factor Org', apps: ['codeup'], secondFactorGraceDays: 0 },
  /** Requires a second factor of its members, who have 14 days left to set one up. */
  twoFactorGrace: { name: 'E2E Grace Org', apps: ['codeup'], secondFactorGraceDays: 14 },
};

/** Bulk organisations the `many` user belongs to: more than two pages of 50 in the chooser. */
export const E2E_MANY_ORGS = { prefix: 'E2E Bulk Org', count: 120 };

/** Accounts of the organisation spec (tests/e2e/serve.ts seeds their memberships). */
export const E2E_ORG_USERS = {
  /** In E2E Org (codeup) and E2E Packages Org (codeup, packages); switches between them. */
  switcher: { username: 'switcher', name: 'Switcher User', password: 'Switch@pass1', org: E2E_ORG.name },
  /** In the 120 bulk organisations. */
  many: { username: 'many', name: 'Many Orgs User', password: 'Many@pass1', org: undefined },
  /** Works in the organisation whose whitelist excludes 127.0.0.1. */
  blocked: { username: 'blocked', name: 'Blocked User', password: 'Blocked@pass1', org: E2E_POLICY_ORGS.blocked.name },
  /** Works in the organisation whose licence has expired. */
  expired: { username: 'expired', name: 'Expired User', password: 'Expired@pass1', org: E2E_POLICY_ORGS.expired.name },
  /** Belongs to no organisation at all. */
  loner: { username: 'loner', name: 'Loner User', password: 'Loner@pass1', org: undefined },
  /** Works in the organisation requiring a second factor, without one: sent to set one up. */
  enrol: {
    username: 'tf-org',
    name: 'Two-Factor Org User',
    password: 'TfOrg@pass1',
    org: E2E_POLICY_ORGS.twoFactor.name,
  },
  /** Works in the organisation whose grace for the second factor lasts: warned. */
  grace: {
    username: 'tf-grace',
    name: 'Grace User',
    password: 'TfGrace@pass1',
    org: E2E_POLICY_ORGS.twoFactorGrace.name,
  },
} as const;

/** Accounts seeded by tests/e2e/serve.ts; each spec that changes an account uses its own. */
export const E2E_USERS = {
  shell: { username: 'shell', name: 'Shell User', password: 'Shell@pass1' },
  login: { username: 'login', name: 'Login User', password: 'Login@pass1' },
  forced: { username: 'forced', name: 'Forced User', password: 'Forced@pass1', mustChangePassword: true },
  profile: { username: 'profile', name: 'Profile User', password: 'Profile@pass1' },
  profilePassword: { username: 'profile-pw', name: 'Profile Password User', password: 'Profile@pass1' },
  /** Chooses a colour scheme in the profile (its own account: the scheme is kept on it, and paints its pages). */
  appearance: { username: 'appearance', name: 'Appearance User', password: 'Appearance@pass1' },
  keys: { username: 'keys', name: 'Keys User', password: 'Keys@pass1' },
  tokens: { username: 'tokens', name: 'Tokens User', password: 'Tokens@pass1' },
  packages: { username: 'packages', name: 'Packages User', password: 'Packages@pass1', org: 'E2E Packages Org' },
  /** Recovers a forgotten password end to end. */
  recover: { username: 'recover', name: 'Recover User', password: 'Recover@pass1', email: 'recover@example.com' },
  /** Mistypes the mailed code five times. */
  recoverCode: { username: 'recover-code', name: 'Code User', password: 'Code@pass1', email: 'code@example.com' },
  /** Reaches the last step with a ticket that goes stale. */
  recoverStale: { username: 'recover-stale', name: 'Stale User', password: 'Stale@pass1', email: 'stale@example.com' },
  /** Fails twice at sign-in, then needs the slider. */
  captcha: { username: 'captcha', name: 'Captcha User', password: 'Captcha@pass1' },
  /** Walks every page at phone to desktop widths, with a long-named token and an SSH key (responsive.spec.ts). */
  responsive: { username: 'responsive', name: 'Responsive User', password: 'Responsive@pass1' },
  /** The security page (security.spec.ts): signed in from several browsers, ends their sessions, reads its history. */
  security: { username: 'security', name: 'Security User', password: 'Security@pass1' },
  /** Walks the security page by keyboard alone at 375 px (security.spec.ts), from two browsers. */
  securityKeys: { username: 'security-keys', name: 'Security Keys User', password: 'SecKeys@pass1' },
  /** Says "this wasn't me" (security.spec.ts): its token is revoked and its other sessions end. */
  securityNotMe: { username: 'security-not-me', name: 'Not Me User', password: 'NotMe@pass1' },
  /** Is asked to prove it is them before creating a token (reauth.spec.ts): its sessions' proofs are aged. */
  reauth: { username: 'reauth', name: 'Reauth User', password: 'Reauth@pass1' },
  /** Adds a passkey on the security page, then signs in with it alone (two-factor.spec.ts). */
  twoFactorPasskey: { username: 'tf-passkey', name: 'Passkey User', password: 'Passkey@pass1' },
  /** Sets up an authenticator app, then signs in with the password and a code (two-factor.spec.ts). */
  twoFactorApp: { username: 'tf-app', name: 'App User', password: 'AppCode@pass1' },
  /** Signs in with a recovery code (two-factor.spec.ts). */
  twoFactorRecovery: { username: 'tf-recovery', name: 'Recovery Code User', password: 'RecCode@pass1' },
  /** Walks the second step and the two-factor section by keyboard alone at 375 px (two-factor.spec.ts). */
  twoFactorKeys: { username: 'tf-keys', name: 'Two-Factor Keys User', password: 'TfKeys@pass1' },
} as const;

/**
 * Directory and third-party sign-in (tests/e2e/sign-in-sources.spec.ts): the editions whose service starts a real
 * slapd and a real OpenID Connect provider (serve.ts), the accounts it seeds and how it configures them.
 */
export const E2E_SIGN_IN = {
  editions: ['vpc', 'global'],
  /** Bound to the Lark (Feishu) account `lark-bound-001` at start. */
  bound: { username: 'oauth-bound', name: 'OAuth Bound User', password: 'OAuth@pass1', openId: 'lark-bound-001' },
  /** Binds the Lark account `lark-new-<edition>` through the "account not bound" page. */
  binder: { username: 'oauth-binder', name: 'OAuth Binder', password: 'OAuth@pass2' },
  /** Lark is the provider that signs in; WeCom answers without the configured id field; DingTalk is not enabled. */
  working: 'lark',
  noAccountInfo: 'wecom',
  notSupported: 'dingtalk',
} as const;

/** Signs in through the login page as a person would, and waits to land on the settings. */
export async function signIn(page: Page, user: { username: string; password: string }, next?: string) {
  // The call the login form makes (the form itself is driven by login.spec.ts, through signInWithForm): one page
  // load less per test.
  const res = await page.request.post('/users/ajax/login', {
    data: { username: user.username, password: user.password },
    headers: { 'x-requested-with': 'XMLHttpRequest' },
  });
  expect(res.status(), await res.text()).toBe(200);
  await page.goto(next ?? '/users/settings');
  await expectLanded(page, next);
}

/** The app has rendered (or hydrated) its first page and settled: it answers clicks and keys itself. */
export async function expectAppTookOver(page: Page, timeout?: number) {
  await expect(page.locator('body')).not.toHaveAttribute('data-settling', { timeout });
}

/**
 * Signed in, on `next`, or on the settings' first page, where signing in leads: the service paints it (a first
 * screen), and a test goes on once the app took it over, as it did when the app itself led there.
 */
async function expectLanded(page: Page, next: string | undefined) {
  if (next) return expect(page).toHaveURL(/\/users\/settings\//);
  await expect(page).toHaveURL(/\/users\/settings\/profile$/);
  await expectAppTookOver(page, 20_000);
}

/** Signs in as a person does: the login page, the form, the redirect to `next` (or settings). */
export async function signInWithForm(page: Page, user: { username: string; password: string }, next?: string) {
  // The page comes painted; `goto` waits for the app to have it (a submit before would reload the page natively).
  await page.goto(next ? `/users/login?next=${encodeURIComponent(next)}` : '/users/login');
  await page.locator('#username').fill(user.username);
  await page.locator('#password').fill(user.password);
  await page.locator('button[type="submit"]').click();
  await expectLanded(page, next);
}

/** The URL pattern of the page's scripts, for `page.route`. */
export const SCRIPTS_ROUTE = '**/static/js/**';

/**
 * Holds back every script the page asks for until the returned function is called (a slow phone on a slow network):
 * a painted page stays without the app meanwhile. The caller unroutes `SCRIPTS_ROUTE` once the app is there.
 */
export async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(SCRIPTS_ROUTE, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * The overlay (a dialog, a drawer, a pop-over), once it has finished appearing: neither it nor what holds it still
 * wears antd's appear or enter motion classes. Playwright's own check (the same box two frames running) can pass in
 * the middle of a zoom on a starved CPU, and the click then lands where the control was: a radio left unchecked
 * ("clicking the checkbox did not change its state", the mouse over its neighbour once the zoom had ended; seen in 1
 * of 8 local runs), a pop-over's button that did nothing (CI).
 */
export async function settled(overlay: Locator): Promise<Locator> {
  await expect(overlay).toBeVisible();
  const moving = overlay.locator(
    'xpath=ancestor-or-self::*[contains(@class, "-appear") or contains(@class, "-enter")]',
  );
  await expect(moving).toHaveCount(0);
  return overlay;
}

/**
 * Presses the button `name` of the open confirmation pop-over (antd's Popconfirm), once it has `settled`. With
 * `question`, the pop-over that asks it: one confirmed just before may still be leaving (antd hides it once its
 * zoom-out ends), which CI once saw as two open pop-overs.
 */
export async function confirmInPopover(page: Page, name: RegExp, question?: RegExp): Promise<void> {
  const open = page.locator('.ant-popover:not(.ant-popover-hidden)');
  const popover = await settled(question ? open.filter({ hasText: question }) : open);
  await popover.getByRole('button', { name }).click();
}

/**
 * Drops the browser's session the way a new visitor arrives without one: the page is left first, so no call still
 * in flight from it answers 401 and sends it to the login page in the middle of the test's next navigation.
 */
export async function dropSession(page: Page): Promise<void> {
  await page.goto('about:blank');
  await page.context().clearCookies();
}

/** One mail the e2e service sent, as its SMTP sink received it (body decoded, links pulled out). */
export interface E2EMail {
  to: string[];
  subject: string;
  text: string;
  links: string[];
}

/** File in which tests/e2e/serve.ts publishes the port of its mail list for the service on `servicePort`. */
export function mailApiPortFile(servicePort: number): string {
  return path.join(os.tmpdir(), `e2e-mail-api-${servicePort}`);
}

/**
 * Mails sent by the e2e service of `baseURL`. tests/e2e/serve.ts runs a real SMTP server on loopback
 * (the service's SMTP_URL) and lists what it received at `http://127.0.0.1:<port>/mails?to=<address>`,
 * the port being written to `mailApiPortFile(service port)`.
 */
export async function mailsTo(baseURL: string, to: string): Promise<E2EMail[]> {
  const port = fs.readFileSync(mailApiPortFile(Number(new URL(baseURL).port)), 'utf8').trim();
  const res = await fetch(`http://127.0.0.1:${port}/mails?to=${encodeURIComponent(to)}`);
  return (await res.json()) as E2EMail[];
}

/** Lets ten minutes pass for one account's password recoveries on the e2e service: its code and ticket go stale. */
export async function ageRecovery(baseURL: string, username: string): Promise<void> {
  const port = fs.readFileSync(mailApiPortFile(Number(new URL(baseURL).port)), 'utf8').trim();
  await fetch(`http://127.0.0.1:${port}/age-recovery?username=${encodeURIComponent(username)}`);
}

/**
 * Lets the re-authentication window pass for one account's sessions on the e2e service (their last proof becomes
 * long ago), so its next sensitive call asks for the password: the harness's side door, like `ageRecovery`, since
 * the window is minutes of real time and other specs' sessions must keep theirs.
 */
export async function ageProofs(baseURL: string, username: string): Promise<void> {
  const port = fs.readFileSync(mailApiPortFile(Number(new URL(baseURL).port)), 'utf8').trim();
  const res = await fetch(`http://127.0.0.1:${port}/age-proofs?username=${encodeURIComponent(username)}`);
  expect(res.status).toBe(204);
}

/** The personal access tokens page. */
export const TOKENS_PAGE = '/users/settings/personalAccessToken';

/**
 * Opens the tokens page and fills its new-token drawer as a person does (`name`, `description`, 30 days, the
 * base:user scope), then saves; the caller waits for what follows (the one-time display, or the password asked first).
 */
export async function createTokenOnPage(page: Page, name: string, description: string): Promise<void> {
  await page.goto(TOKENS_PAGE);
  await page.getByTestId('token-create').click();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByRole('checkbox', { name: /base:user$/ })).toBeVisible({ timeout: 20_000 });
  await settled(drawer);
  await page.locator('#access-token-name').fill(name);
  await page.locator('#access-token-description').fill(description);
  await drawer.getByText(/^(30 天|30 days)$/).click();
  await drawer.getByRole('checkbox', { name: /base:user$/ }).check();
  await page.getByTestId('token-save').click();
}

/** A token for the e2e service to make for an account, with its age, last use and expiry in days from now. */
export interface E2ETokenSeed {
  name: string;
  description?: string;
  scopes: string[];
  /** Made this many days ago (0 when absent). */
  createdDaysAgo?: number;
  /** Last used this many days ago (the token's own column, no recorded use); never when absent. */
  usedDaysAgo?: number;
  /** Ends this many days from now (negative: it has expired); null never ends. */
  expiresInDays: number | null;
}

/** A token the e2e service made: its id and its secret. */
export interface E2ESeededToken {
  name: string;
  id: string;
  token: string;
}

/** An account to sign in with: its username, display name and password. */
export interface E2EAccount {
  username: string;
  name: string;
  password: string;
}

/**
 * Gives `account` exactly `tokens` on the e2e service (its earlier ones and their uses go), dated days back on the
 * service's clock, and makes the account first when it does not exist: the harness's side door, like `ageProofs`,
 * since "unused for 90 days" cannot wait 90 days.
 */
export async function seedTokens(
  baseURL: string,
  account: E2EAccount,
  tokens: E2ETokenSeed[],
): Promise<E2ESeededToken[]> {
  const port = fs.readFileSync(mailApiPortFile(Number(new URL(baseURL).port)), 'utf8').trim();
  const res = await fetch(`http://127.0.0.1:${port}/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account, tokens }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as E2ESeededToken[];
}

/** Where the gap of a puzzle the e2e service drew is (left edge, puzzle pixels), read from its database. */
export async function puzzleGapOf(baseURL: string, captchaId: string): Promise<number> {
  const port = fs.readFileSync(mailApiPortFile(Number(new URL(baseURL).port)), 'utf8').trim();
  const res = await fetch(`http://127.0.0.1:${port}/captcha?id=${encodeURIComponent(captchaId)}`);
  return ((await res.json()) as { x: number }).x;
}

/**
 * Solves the slider on the page as a person does: waits for the puzzle the widget asked for, learns where its gap
 * is, then drags the handle there with the mouse — starting from rest, an uneven pace with a little vertical wobble,
 * a few px too far, back, and a rest before the release — or, with `keyboard`, focuses it and moves it with
 * Shift+Arrow and Arrow presses at an uneven pace (one press too many, taken back), looks, then Enter. Resolves
 * once the service accepted the answer.
 */
export async function solveSliderOnPage(page: Page, baseURL: string, puzzle: Promise<Response>, keyboard = false) {
  const { captcha_id: id } = (await (await puzzle).json()) as { captcha_id: string };
  const gap = await puzzleGapOf(baseURL, id);
  const widget = page.getByTestId('slider-captcha');
  await expect(widget).toHaveAttribute('data-status', 'ready');
  const handle = page.getByRole('slider');
  const verified = page.waitForResponse((r) => /\/sliderCaptcha(:|%3A)verify$/i.test(new URL(r.url()).pathname));
  if (keyboard) {
    await handle.focus();
    const presses = [
      ...Array<string>(Math.floor(gap / 10)).fill('Shift+ArrowRight'),
      ...Array<string>(gap % 10).fill('ArrowRight'),
      'ArrowRight',
      'ArrowLeft',
    ];
    for (const [i, key] of presses.entries()) {
      await handle.press(key, { delay: 30 });
      await page.waitForTimeout(40 + ((i * 37) % 90));
    }
    await page.waitForTimeout(450);
    await handle.press('Enter');
  } else {
    const box = (await handle.boundingBox())!;
    const shown = (await widget.boundingBox())!.width;
    const scale = shown / 320;
    const x0 = box.x + box.width / 2;
    const y0 = box.y + box.height / 2;
    const over = gap + 4;
    await page.mouse.move(x0, y0);
    await page.mouse.down();
    await page.waitForTimeout(80);
    const steps = 14;
    for (let i = 1; i <= steps; i++) {
      const f = i / steps;
      await page.mouse.move(x0 + over * scale * f * f * (3 - 2 * f), y0 + Math.sin(i) * 2);
      await page.waitForTimeout(20 + (i % 4) * 12);
    }
    await page.waitForTimeout(90);
    await page.mouse.move(x0 + (gap + 2) * scale, y0 + 1);
    await page.waitForTimeout(50);
    await page.mouse.move(x0 + gap * scale, y0 + 2);
    await page.waitForTimeout(250);
    await page.mouse.up();
  }
  expect((await verified).status()).toBe(200);
}

/** The shell's footer and side menu: their contrast findings in some brand colours belong to the shell's own check. */
export const SECTION_AXE_EXCLUDE = ['footer', '[data-testid="shell-sider"]'];

/**
 * Runs axe on the page as a person sees it once it has settled: the app has taken over, its calls answered, the
 * pointer off the last button (no hover state) and anything fading in or out done. `exclude` leaves out parts
 * another check owns.
 */
export async function expectNoAxeViolations(page: Page, exclude: readonly string[] = SECTION_AXE_EXCLUDE) {
  // The app has rendered its page, and what it loaded has come (a button disabled while its section loads turns enabled, fading its colours).
  await expectAppTookOver(page);
  await page.waitForLoadState('networkidle');
  await page.mouse.move(0, 0);
  await expect(page.locator('.ant-popover:not(.ant-popover-hidden)')).toHaveCount(0);
  // Colours are checked as they settle: a toast or drawer fading in or out has, for a moment, too little contrast. A
  // toast leaves on its own after three seconds, maybe while axe runs: none is left. Then nothing finite may have run
  // for 300 ms (a state that changed just before the check, a button turning enabled, starts its transition late).
  await expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 10_000 });
  await page.waitForFunction(
    () =>
      new Promise<boolean>((resolve) => {
        let quietSince = performance.now();
        const check = () => {
          const moving = document
            .getAnimations()
            .some((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity);
          if (moving) quietSince = performance.now();
          if (performance.now() - quietSince >= 300) resolve(true);
          else requestAnimationFrame(check);
        };
        check();
      }),
  );
  let builder = new AxeBuilder({ page });
  for (const selector of exclude) builder = builder.exclude(selector);
  const results = await builder.analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/**
 * The e2e service's address with `localhost` for its host: the same service, but a WebAuthn relying party needs a
 * domain for its id (not an IP address), and without PUBLIC_URL the service's rp id is `localhost`. Cookies are per
 * host, so a test that uses passkeys stays on this address throughout.
 */
export function onLocalhost(baseURL: string): string {
  const url = new URL(baseURL);
  url.hostname = 'localhost';
  return url.origin;
}

/** A passkey Chromium holds in its virtual authenticator (the DevTools protocol's WebAuthn domain). */
export interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  signCount: number;
  userHandle?: string;
}

/**
 * Gives the page's browser tab a platform authenticator that answers by itself: CTAP2, discoverable credentials,
 * user verification done — a phone's or laptop's passkey store, through Chromium's DevTools WebAuthn domain (no
 * dialog, no touch). Resolves to a way to read the passkeys it holds.
 */
export async function addVirtualAuthenticator(page: Page): Promise<{ credentials(): Promise<VirtualCredential[]> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      ctap2Version: 'ctap2_1',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

/**
 * The code an authenticator app shows for `secret` (base32, as the security page shows it: spaces do not matter),
 * `steps` periods of 30 s from now. A code counts once per step: a test that needs a second code soon after a first
 * takes the next step's (`steps = 1`), which the service accepts as one step of drift, instead of waiting.
 */
export function totpCode(secret: string, steps = 0): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret.replace(/[\s-]/g, '').toUpperCase()) });
  return totp.generate({ timestamp: Date.now() + steps * totp.period * 1000 });
}

/** Signs out as a person does: the sign-out address, its confirmation's button, then the sign-in page. */
export async function signOut(page: Page): Promise<void> {
  await page.goto('/users/logout');
  await page.getByRole('button', { name: /^(退出登录|Sign out)$/ }).click();
  await expect(page).toHaveURL(/\/(users|sso)\/login/);
}

/** Presses Tab (or Shift+Tab) until `target` has the keyboard focus; fails after `max` presses. */
export async function tabTo(page: Page, target: Locator, { back = false, max = 60 } = {}) {
  const handle = await target.elementHandle();
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((el) => el === document.activeElement, handle)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`could not reach ${String(target)} with the keyboard`);
}

/** True while the page has no sideways scroll (nothing wider than the window). */
export const noHorizontalScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
