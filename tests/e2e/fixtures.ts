import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The organisation every e2e service starts with: code hosting installed, packages not. */
export const E2E_ORG = { name: 'E2E Org', apps: ['codeup'] };

/** A second organisation with the packages app, for the artifact-credential spec (its user works in it). */
export const E2E_PACKAGES_ORG = { name: 'E2E Packages Org', apps: ['codeup', 'packages'] };

/** Organisations of the organisation spec: an IP whitelist that excludes loopback, and a licence that has expired. */
export const E2E_POLICY_ORGS = {
  blocked: { name: 'E2E Blocked Org', apps: ['codeup'], ipWhitelist: ['10.0.0.0/8', '2001:db8::/32'] },
  expired: { name: 'E2E Expired Org', apps: ['codeup'], licenceExpiresAt: '2020-01-31' },
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
} as const;

/** Accounts seeded by tests/e2e/serve.ts; each spec that changes an account uses its own. */
export const E2E_USERS = {
  shell: { username: 'shell', name: 'Shell User', password: 'Shell@pass1' },
  login: { username: 'login', name: 'Login User', password: 'Login@pass1' },
  forced: { username: 'forced', name: 'Forced User', password: 'Forced@pass1', mustChangePassword: true },
  profile: { username: 'profile', name: 'Profile User', password: 'Profile@pass1' },
  profilePassword: { username: 'profile-pw', name: 'Profile Password User', password: 'Profile@pass1' },
  keys: { username: 'keys', name: 'Keys User', password: 'Keys@pass1' },
  tokens: { username: 'tokens', name: 'Tokens User', password: 'Tokens@pass1' },
  packages: { username: 'packages', name: 'Packages User', password: 'Packages@pass1', org: 'E2E Packages Org' },
} as const;

/** Signs in through the login page as a person would, and waits to land on the settings. */
export async function signIn(page: Page, user: { username: string; password: string }, next?: string) {
  await page.goto(next ? `/users/login?next=${encodeURIComponent(next)}` : '/users/login');
  await page.locator('#username').fill(user.username);
  await page.locator('#password').fill(user.password);
  await page.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/users\/settings\//);
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

/** The shell's footer and side menu: their contrast findings in some brand colours belong to the shell's own check. */
export const SECTION_AXE_EXCLUDE = ['footer', '[data-testid="shell-sider"]'];

/**
 * Runs axe on the page as a person sees it now: the pointer off the last button (no hover state) and any
 * confirmation that just closed done fading out. `exclude` leaves out parts another check owns.
 */
export async function expectNoAxeViolations(page: Page, exclude: readonly string[] = SECTION_AXE_EXCLUDE) {
  await page.mouse.move(0, 0);
  await expect(page.locator('.ant-popover:not(.ant-popover-hidden)')).toHaveCount(0);
  let builder = new AxeBuilder({ page });
  for (const selector of exclude) builder = builder.exclude(selector);
  const results = await builder.analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}
