import crypto from 'node:crypto';
import type { AccountDeps } from './accounts';
import { createOrg, createUser, installApp, isEmpty } from './accounts';

/** What the first start created, shown once to the person who ran it. */
export interface DemoSeed {
  username: string;
  password: string;
  org: string;
}

/** A random password that satisfies the password rule (letters, digits, one of @#$%^&*). */
export function generatePassword(): string {
  const letters = crypto
    .randomBytes(12)
    .toString('base64')
    .replace(/[^A-Za-z]/g, '')
    .slice(0, 8)
    .padEnd(8, 'k');
  const digits = String(crypto.randomInt(100, 1000));
  const special = '@#$%^&*'[crypto.randomInt(0, 7)];
  return `${letters}${special}${digits}`;
}

/** On an empty database: a demo organisation with code hosting and packages, and a demo user; otherwise nothing. */
export async function seedDemoIfEmpty(deps: AccountDeps): Promise<DemoSeed | null> {
  if (!(await isEmpty(deps.db))) return null;
  const org = 'Demo Organization';
  await createOrg(deps, org);
  await installApp(deps, org, 'codeup');
  await installApp(deps, org, 'packages');
  const password = generatePassword();
  await createUser(deps, { username: 'demo', name: 'Demo User', password, org, email: 'demo@example.com' });
  return { username: 'demo', password, org };
}
