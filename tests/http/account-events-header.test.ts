import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_EVENTS_HEADER } from '../../schemas/account-events';
import { Client, INBOX, useTestServer, type Answer } from '../kit/server';

// The answer of a call that wrote to the caller's inbox says so (`x-account-events`), whichever slice wrote: the web
// app refreshes its bell on it. Reads (POST ones included), refusals and other people's calls say nothing.

const PASSWORD = 'Secret#123';
const TOKENS = '/users/ajax/v1/my/tokens';
const KEYS = '/uiless/proxy/codeup/api/v3/user/keys';
const PACKAGES_PASSWORD = '/uiless/proxy/package/api/external/users/user/password';

const told = (a: Answer) => a.headers.get(ACCOUNT_EVENTS_HEADER);

describe('x-account-events', () => {
  let keyDir: string;
  beforeAll(() => {
    keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'account-events-'));
  });
  afterAll(() => fs.rmSync(keyDir, { recursive: true, force: true }));
  const s = useTestServer({
    seed: {
      orgs: { Acme: { apps: ['codeup', 'packages'] } },
      users: { alice: { password: PASSWORD, org: 'Acme' }, bob: { password: PASSWORD, org: 'Acme' } },
      signIn: ['alice', 'bob'],
    },
  });

  it('tells the caller of each call that wrote an inbox message, and of no other', async () => {
    const { alice } = s.clients;
    const file = path.join(keyDir, 'alice');
    execFileSync('ssh-keygen', ['-q', '-N', '', '-t', 'ed25519', '-C', 'alice@laptop', '-f', file]);
    const key = fs.readFileSync(`${file}.pub`, 'utf8');

    const added = await alice.req('POST', KEYS, { body: { name: 'laptop', key } });
    expect(added.status, added.text).toBe(201);
    expect(told(added)).toBe('1');
    const reset = await alice.req('POST', PACKAGES_PASSWORD);
    expect(reset.status, reset.text).toBe(200);
    expect(told(reset)).toBe('1');
    const created = await alice.req('POST', TOKENS, {
      body: {
        name: 'bot',
        description: 'for the header test',
        expires_at: new Date(s.clock.now().getTime() + 86_400_000).toISOString(),
        token_scopes: ['base:user:read'],
      },
    });
    expect(created.status, created.text).toBe(200);
    expect(told(created)).toBe('1');

    // Reads, POST ones too, and the bell's own count call say nothing (no refresh loop); so does a refused write.
    const reads = [
      await alice.req('POST', `${TOKENS}:search`, { body: {} }),
      await alice.req('POST', `${INBOX}/unread:countGroupByApp`),
      await alice.req('POST', `${INBOX}:list`, { body: {} }),
      await alice.req('GET', KEYS),
    ];
    for (const a of reads) expect([a.status, told(a)]).toEqual([200, null]);
    const again = await alice.req('POST', KEYS, { body: { name: 'again', key } });
    expect([again.status, told(again)]).toEqual([409, null]);
  });

  it('tells only the caller whose call it was, when calls run side by side', async () => {
    const { alice, bob } = s.clients;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2 ? bob.req('POST', `${TOKENS}:search`, { body: {} }) : alice.req('POST', PACKAGES_PASSWORD),
      ),
    );
    expect(answers.map((a) => [a.status, told(a)])).toEqual(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? [200, null] : [200, '1'])),
    );
  });

  it('tells a sign-in nothing, though it wrote the new-device message', async () => {
    const fresh = new Client(s.url);
    const signedIn = await fresh.login('bob', PASSWORD);
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(told(signedIn)).toBeNull();
  });
});
