import { beforeAll, describe, expect, it } from 'vitest';
import { adminOn, Client, INBOX, useTestServer } from '../kit/server';
import { verifyPackagesPassword } from '../../plugins/packages-credential/server/service';

// "This wasn't me" (issue 40): one call ends every other session, revokes every credential, optionally holds the
// account until an administrator lifts it, and says so in the inbox.

const NOT_ME = '/users/ajax/v1/my/security:not-me';
const TOKENS = '/users/ajax/v1/my/tokens';
const PACKAGES_RESET = '/uiless/proxy/package/api/external/users/user/password';

describe('"this wasn\'t me"', () => {
  const s = useTestServer({
    seed: {
      orgs: { Acme: ['codeup', 'packages'] },
      users: {
        alice: { password: 'Secret#123', org: 'Acme' },
        bob: { password: 'Secret#123', org: 'Acme' },
      },
      signIn: ['alice', 'bob'],
    },
  });
  let alice: Client;
  let bob: Client;

  beforeAll(() => {
    ({ alice, bob } = s.clients);
  });

  const createToken = async (c: Client, name: string): Promise<string> => {
    const expires = new Date(s.clock.now().getTime() + 30 * 86_400_000).toISOString();
    const a = await c.req('POST', TOKENS, {
      body: { name, description: 'for tests', expires_at: expires, token_scopes: ['base:user:read'] },
    });
    expect(a.status, a.text).toBe(200);
    return a.json.token as string;
  };
  const tokenWorks = async (token: string) =>
    (
      await new Client(s.url).req('GET', '/oapi/v1/platform/user', {
        headers: { 'x-yunxiao-token': token },
        xhr: false,
      })
    ).status === 200;

  it('ends the other sessions, revokes tokens and the artifact password, keeps this session, and tells the inbox', async () => {
    const [other] = Object.values(await s.signIn('alice'));
    const token = await createToken(alice, 'ci');
    const reset = await alice.req('POST', PACKAGES_RESET);
    expect(reset.status, reset.text).toBe(200);
    const packagesPassword: string = reset.json.password;
    s.clock.advance(10_001);
    expect(await verifyPackagesPassword(s.ctx, 'alice', packagesPassword)).toBe(true);
    const bobToken = await createToken(bob, 'bob-ci');

    const a = await alice.req('POST', NOT_ME, { body: { lock: false } });
    expect(a.status, a.text).toBe(200);
    expect(a.json).toEqual({
      sessions_ended: 1,
      credentials: expect.arrayContaining([
        { credential: 'token', count: 1 },
        { credential: 'packages-password', count: 1 },
      ]),
      locked: false,
    });

    expect((await other.req('GET', '/individual/proxy/me')).status).toBe(401);
    expect((await alice.req('GET', '/individual/proxy/me')).status).toBe(200);
    expect(await tokenWorks(token)).toBe(false);
    // The old artifact password stops at once (no grace period), and nobody was told the new one.
    expect(await verifyPackagesPassword(s.ctx, 'alice', packagesPassword)).toBe(false);
    expect(a.text).not.toContain(packagesPassword);
    // Nobody else's credentials or sessions were touched.
    expect(await tokenWorks(bobToken)).toBe(true);
    expect((await bob.req('GET', '/individual/proxy/me')).status).toBe(200);

    // The inbox says what was done; every other security message of the account offers "this wasn't me".
    const inbox = await alice.req('POST', `${INBOX}:list`, { body: {} });
    expect(inbox.status, inbox.text).toBe(200);
    const messages = inbox.json.messages as { type: string; report_link: string | null }[];
    const done = messages.find((m) => m.type === 'account.not-me');
    expect(done).toMatchObject({ report_link: null });
    expect(messages.find((m) => m.type === 'token.created')).toMatchObject({
      report_link: '/users/settings/security?not-me=1',
    });
  });

  it('with lock, holds the account: no sign-in and no recovery until an administrator unlocks it', async () => {
    const a = await alice.req('POST', NOT_ME, { body: { lock: true } });
    expect(a.status, a.text).toBe(200);
    expect(a.json.locked).toBe(true);

    // Even the right password gets no session; a wrong one is just wrong (the hold is not told to guessers).
    const right = await new Client(s.url).login('alice', 'Secret#123');
    expect(right.status).toBe(423);
    expect(right.json.code).toBe('AccountHeld');
    const wrong = await new Client(s.url).login('alice', 'Wrong#1234');
    expect(wrong.status).toBe(401);

    const unlocked = await adminOn(s, 'unlock-user', '--username', 'alice');
    expect([unlocked.code, unlocked.out]).toEqual([0, 'unlocked alice (held by its owner)']);
    const history = await alice.req('GET', '/users/ajax/v1/my/history?limit=5');
    expect((history.json.entries as { kind: string }[]).map((e) => e.kind)).toContain('account.unlocked');
    expect((await new Client(s.url).login('alice', 'Secret#123')).status).toBe(200);
  });

  it('validates its body and needs a session and the CSRF token', async () => {
    expect((await alice.req('POST', NOT_ME, { body: { lock: 'yes' } })).status).toBe(400);
    expect((await alice.req('POST', NOT_ME, { body: {} })).status).toBe(400);
    expect((await new Client(s.url).req('POST', NOT_ME, { body: { lock: false } })).status).toBe(401);
    expect((await alice.req('POST', NOT_ME, { body: { lock: false }, csrf: false })).status).toBe(403);
  });
});
