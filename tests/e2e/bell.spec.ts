import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { confirmInPopover, expect, expectAppTookOver, settled, signIn, test } from './fixtures';

// A fresh bell: whatever section writes a message to the inbox, the top bar's count follows at once, without a
// reload or a navigation, and with one count call per write. Its account works in the organisation with packages
// (tests/e2e/serve.ts seeds it).
const USER = { username: 'bell-fresh', password: 'Bell@pass1' };
const COUNT_CALL = /\/users\/ajax\/v1\/notifications\/inbox\/messages\/unread:countGroupByApp$/;

/** A plugin's message in the edition's language, read from its catalogue (the copy may change; the key does not). */
function message(plugin: string, key: string, zh: boolean): string {
  const file = path.join('plugins', plugin, 'messages', zh ? 'zh_CN.json' : 'en_US.json');
  const text = (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>)[key];
  if (!text) throw new Error(`${file} has no ${key}`);
  return text;
}

/** A button's name: antd spaces out a two-character CJK label ("保 存"). */
function buttonName(text: string): RegExp {
  const escaped = [...text].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^\\s*${escaped.join('\\s?')}\\s*$`);
}

/** A new ed25519 public key, as ssh-keygen makes it. */
function publicKey(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-bell-'));
  const file = path.join(dir, 'id');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'bell@test', '-f', file]);
  const pub = fs.readFileSync(`${file}.pub`, 'utf8').trim();
  fs.rmSync(dir, { recursive: true, force: true });
  return pub;
}

/** The unread count the bell shows (0 when it shows none), read once without waiting for the badge. */
async function bellCount(page: Page): Promise<number> {
  await expect(page.getByTestId('inbox-bell')).toBeVisible();
  const [text] = await page.getByTestId('inbox-bell-count').allInnerTexts();
  return text === undefined ? 0 : Number(text);
}

/** Counts the page's loads and its count calls from now on. */
function watch(page: Page) {
  const seen = { loads: 0, counts: 0 };
  page.on('load', () => seen.loads++);
  page.on('request', (r) => COUNT_CALL.test(r.url()) && seen.counts++);
  return seen;
}

/** Adds an SSH key through the section's dialog, as a person does. */
async function addKey(page: Page, zh: boolean, name: string) {
  const m = (key: string) => message('ssh-keys', key, zh);
  await page.getByRole('button', { name: m('ssh-keys.page.add') }).click();
  const dialog = await settled(page.getByRole('dialog'));
  await dialog.getByLabel(m('ssh-keys.form.key')).fill(publicKey());
  await dialog.getByLabel(m('ssh-keys.form.name')).fill(name);
  await dialog.getByText(m('ssh-keys.scope.readOnly')).click();
  await dialog.getByRole('button', { name: buttonName(m('ssh-keys.form.save')) }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('cell', { name, exact: true })).toBeVisible();
}

test('the bell follows an added SSH key and an artifact password reset at once, without a reload', async ({
  page,
}, info) => {
  test.skip(!['vpc', 'global'].includes(info.project.name), 'the bell is the same in the other editions');
  // vpc: Chinese, with the artifact credential section; global: English, without it (a second key stands in).
  const zh = info.project.name === 'vpc';
  await signIn(page, USER, '/users/settings/ssh');
  await expect(page).toHaveURL(/\/users\/settings\/ssh$/);
  // The section may come painted: its buttons answer once the app has the page.
  await expectAppTookOver(page);
  await expect(page.getByTestId('inbox-bell')).toBeVisible();
  const before = await bellCount(page);
  const seen = watch(page);

  await addKey(page, zh, 'bell laptop');
  await expect.poll(() => bellCount(page)).toBe(before + 1);
  expect(seen).toEqual({ loads: 0, counts: 1 });

  if (!zh) {
    await addKey(page, zh, 'bell desktop');
    await expect.poll(() => bellCount(page)).toBe(before + 2);
    expect(seen).toEqual({ loads: 0, counts: 2 });
    return;
  }

  // To the artifact credential through the side bar (the app's own navigation, which asks once on arrival).
  await page.locator('[data-menu-key="packagesCredential"]').click();
  await expect(page).toHaveURL(/\/users\/settings\/packagesCredential$/);
  await expect(page.getByTestId('packages-username')).toBeVisible();
  await expect.poll(() => seen.counts).toBe(2);
  expect(await bellCount(page)).toBe(before + 1);

  await page.getByTestId('packages-reset').click();
  await confirmInPopover(page, buttonName(message('packages-credential', 'packages-credential.reset.ok', zh)));
  await expect(page.getByTestId('packages-new-password')).toBeVisible();
  await expect.poll(() => bellCount(page)).toBe(before + 2);
  // One count call for the reset, and still no page load since sign-in.
  await page.waitForTimeout(500);
  expect(seen).toEqual({ loads: 0, counts: 3 });
});
