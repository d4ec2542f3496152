import { expect, type Page } from '@playwright/test';

/** The organisation every e2e service starts with: code hosting installed, packages not. */
export const E2E_ORG = { name: 'E2E Org', apps: ['codeup'] };

/** Accounts seeded by tests/e2e/serve.ts; each spec that changes an account uses its own. */
export const E2E_USERS = {
  shell: { username: 'shell', name: 'Shell User', password: 'Shell@pass1' },
  login: { username: 'login', name: 'Login User', password: 'Login@pass1' },
  forced: { username: 'forced', name: 'Forced User', password: 'Forced@pass1', mustChangePassword: true },
} as const;

/** Signs in through the login page as a person would, and waits to land on the settings. */
export async function signIn(page: Page, user: { username: string; password: string }, next?: string) {
  await page.goto(next ? `/users/login?next=${encodeURIComponent(next)}` : '/users/login');
  await page.locator('#username').fill(user.username);
  await page.locator('#password').fill(user.password);
  await page.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/users\/settings\//);
}
