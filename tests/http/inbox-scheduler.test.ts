import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INBOX, startTwin, useTestServer, type Client, type TestServer } from '../kit/server';
import { expectNoSecrets } from '../kit/secrets';
import type { InboxMessage } from '../../plugins/notifications/contract';

// Expiry messages found by the service's scheduler, with a manual clock (`scheduler: false`: the test runs each
// pass with `app.runScheduled()` after moving time). Each notice exists once however often a pass finds it, only
// the latest stage is told after downtime, and two instances on one database make each message exactly once.

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const PASSWORD = 'Secret#123';
const TOKENS = '/users/ajax/v1/my/tokens';
const KEYS = '/uiless/proxy/codeup/api/v3/user/keys';

/** A message of the inbox as a client reads it (the contract's shape). */
type Msg = InboxMessage;

/** The messages of the given types in a client's inbox (English), newest first. */
async function inbox(c: Client, ...types: string[]): Promise<Msg[]> {
  const a = await c.req('POST', `${INBOX}:list`, { body: { page_size: 100 }, headers: { 'accept-language': 'en-US' } });
  expect(a.status, a.text).toBe(200);
  return (a.json.messages as Msg[]).filter((m) => types.includes(m.type));
}

/** Every token value the tests were shown: none may reach a message or a log line. */
const tokenValues: string[] = [];

/** `YYYY-MM-DD` of an instant, as the messages print it. */
const ymd = (at: number) => new Date(at).toISOString().slice(0, 10);

/** Creates a token through the settings call; resolves with its id. */
async function createToken(c: Client, name: string, expiresAt: number): Promise<string> {
  const a = await c.req('POST', TOKENS, {
    body: {
      name,
      description: 'scheduler test',
      expires_at: new Date(expiresAt).toISOString(),
      token_scopes: ['base:user:read'],
    },
  });
  expect(a.status, a.text).toBe(200);
  tokenValues.push(a.json.token);
  return a.json.token_id;
}

/** A fresh ed25519 public key made by ssh-keygen. */
function makeKey(dir: string, name: string): string {
  const file = path.join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-N', '', '-t', 'ed25519', '-C', `${name}@test`, '-f', file]);
  return fs.readFileSync(`${file}.pub`, 'utf8');
}

/** Adds an SSH key with an expiry through the code-hosting call. */
async function addKey(c: Client, name: string, key: string, expiresAt: number): Promise<void> {
  const a = await c.req('POST', KEYS, { body: { name, key, expires_at: new Date(expiresAt).toISOString() } });
  expect(a.status, a.text).toBe(201);
}

let keyDir: string;
beforeAll(() => {
  keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-sched-'));
});
afterAll(() => fs.rmSync(keyDir, { recursive: true, force: true }));

describe('token expiry messages', () => {
  const s = useTestServer({
    scheduler: false,
    seed: { users: { alice: { password: PASSWORD }, bob: { password: PASSWORD } } },
  });
  afterAll(async () => {
    expectNoSecrets(s.logs, tokenValues);
    const rows = await s.ctx.db.selectFrom('inbox_messages').select('params').execute();
    expectNoSecrets(
      rows.map((r) => r.params),
      tokenValues,
    );
  });
  /** One scheduler pass at `at`, then a signed-in client of `who` (sessions end when the clock jumps). */
  const passAt = async (at: number, who = 'alice') => {
    s.clock.set(at);
    await s.app.runScheduled();
    return (await s.signIn(who))[who];
  };

  it('7 days and 1 day before, then expired: each once, however many passes find it', async () => {
    const t0 = s.clock.now().getTime();
    const expiry = t0 + 10 * DAY;
    const { alice } = await s.signIn('alice');
    await createToken(alice, 'nightly', expiry);
    const mine = (c: Client) => inbox(c, 'token.expiring', 'token.expired');

    expect(await mine(await passAt(t0))).toEqual([]);
    expect(await mine(await passAt(expiry - 8 * DAY))).toEqual([]);

    let c = await passAt(expiry - 6 * DAY);
    let msgs = await mine(c);
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toMatchObject({
      type: 'token.expiring',
      app: 'account',
      sensitive: false,
      link: '/users/settings/personalAccessToken',
      title: 'Personal access token about to expire',
      created_at: new Date(expiry - 6 * DAY).toISOString(),
    });
    expect(msgs[0].body).toContain('"nightly"');
    expect(msgs[0].body).toContain(ymd(expiry));
    for (let i = 0; i < 3; i++) await s.app.runScheduled();
    s.clock.advance(20 * 60 * 1000);
    await s.app.runScheduled();
    expect(await mine(c)).toHaveLength(1);

    c = await passAt(expiry - 12 * HOUR);
    await s.app.runScheduled();
    msgs = await mine(c);
    expect(msgs.map((m) => [m.type, m.created_at])).toEqual([
      ['token.expiring', new Date(expiry - 12 * HOUR).toISOString()],
      ['token.expiring', new Date(expiry - 6 * DAY).toISOString()],
    ]);

    c = await passAt(expiry + HOUR);
    await s.app.runScheduled();
    msgs = await mine(c);
    expect(msgs.map((m) => m.type)).toEqual(['token.expired', 'token.expiring', 'token.expiring']);
    expect(msgs[0]).toMatchObject({ title: 'Personal access token expired', sensitive: false });
    expect(msgs[0].body).toBe(`The personal access token "nightly" expired on ${ymd(expiry)} and no longer works.`);
    c = await passAt(expiry + 5 * DAY);
    expect(await mine(c)).toHaveLength(3);
    // Bob has nothing of Alice's.
    expect(await inbox((await s.signIn('bob')).bob, 'token.expiring', 'token.expired')).toEqual([]);
  });

  it('after downtime (10 days before → 2 days after) only the expired notice is told; deleted tokens tell nothing', async () => {
    const t0 = s.clock.now().getTime();
    const { bob } = await s.signIn('bob');
    await createToken(bob, 'asleep', t0 + 10 * DAY);
    const gone = await createToken(bob, 'deleted', t0 + 5 * DAY);
    expect((await bob.req('DELETE', `${TOKENS}/${gone}`)).status).toBe(200);
    await s.app.runScheduled();
    expect(await inbox(bob, 'token.expiring', 'token.expired')).toEqual([]);

    const c = await passAt(t0 + 12 * DAY, 'bob');
    await s.app.runScheduled();
    const msgs = await inbox(c, 'token.expiring', 'token.expired');
    expect(msgs.map((m) => m.type)).toEqual(['token.expired']);
    expect(msgs[0].body).toContain('"asleep"');
    expect(JSON.stringify(msgs)).not.toContain('deleted');
  });

  it('a token that expired more than 30 days before the first pass gets no message', async () => {
    const t0 = s.clock.now().getTime();
    const { bob } = await s.signIn('bob');
    await createToken(bob, 'ancient', t0 + DAY);
    const c = await passAt(t0 + 32 * DAY, 'bob');
    expect((await inbox(c, 'token.expiring', 'token.expired')).filter((m) => m.body.includes('"ancient"'))).toEqual([]);
  });

  it('moving a token’s expiry makes its notices due again for the new date', async () => {
    const t0 = s.clock.now().getTime();
    const { alice } = await s.signIn('alice');
    const id = await createToken(alice, 'renewed', t0 + 3 * DAY);
    const before = (await inbox(alice, 'token.expiring')).length;
    await s.app.runScheduled();
    expect(await inbox(alice, 'token.expiring')).toHaveLength(before + 1);
    const later = t0 + 20 * DAY;
    const edit = await alice.req('PUT', `${TOKENS}/${id}`, {
      body: { name: 'renewed', expires_at: new Date(later).toISOString(), token_scopes: ['base:user:read'] },
    });
    expect(edit.status, edit.text).toBe(200);
    await s.app.runScheduled();
    expect(await inbox(alice, 'token.expiring')).toHaveLength(before + 1);
    const c = await passAt(later - 5 * DAY);
    const msgs = (await inbox(c, 'token.expiring')).filter((m) => m.body.includes('"renewed"'));
    expect(msgs).toHaveLength(2);
    expect(msgs[0].body).toContain(ymd(later));
  });
});

describe('SSH key expiry messages', () => {
  const s = useTestServer({ scheduler: false, seed: { users: { carol: { password: PASSWORD } } } });

  it('7 days and 1 day before, expired, once each; after downtime only the latest stage', async () => {
    const t0 = s.clock.now().getTime();
    const expiry = t0 + 10 * DAY;
    let { carol } = await s.signIn('carol');
    await addKey(carol, 'deploy', makeKey(keyDir, 'deploy'), expiry);
    await addKey(carol, 'sleeper', makeKey(keyDir, 'sleeper'), expiry + HOUR);
    const of = async (name: string) =>
      (await inbox(carol, 'ssh-key.expiring', 'ssh-key.expired')).filter((m) => m.body.includes(`"${name}"`));
    const at = async (when: number, passes = 1) => {
      s.clock.set(when);
      for (let i = 0; i < passes; i++) await s.app.runScheduled();
      ({ carol } = await s.signIn('carol'));
    };

    await at(t0);
    expect(await of('deploy')).toEqual([]);
    await at(expiry - 6 * DAY, 4);
    let msgs = await of('deploy');
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toMatchObject({
      type: 'ssh-key.expiring',
      app: 'account',
      sensitive: false,
      link: '/users/settings/ssh',
      title: 'SSH key about to expire',
      body: `The SSH key "deploy" expires on ${ymd(expiry)}.`,
    });
    await at(expiry - 12 * HOUR, 3);
    expect((await of('deploy')).map((m) => m.type)).toEqual(['ssh-key.expiring', 'ssh-key.expiring']);
    await at(expiry + 30 * 60 * 1000, 3);
    msgs = await of('deploy');
    expect(msgs.map((m) => m.type)).toEqual(['ssh-key.expired', 'ssh-key.expiring', 'ssh-key.expiring']);
    expect(msgs[0].title).toBe('SSH key expired');

    // "sleeper" ends an hour after "deploy": still in its last day at the pass above.
    expect((await of('sleeper')).map((m) => m.type)).toEqual(['ssh-key.expiring', 'ssh-key.expiring']);

    // A key seen 10 days before its expiry, then not until 2 days after (downtime): the expired notice only.
    await addKey(carol, 'late', makeKey(keyDir, 'late'), s.clock.now().getTime() + 10 * DAY);
    await at(s.clock.now().getTime(), 2);
    expect(await of('late')).toEqual([]);
    await at(s.clock.now().getTime() + 12 * DAY, 2);
    expect((await of('late')).map((m) => m.type)).toEqual(['ssh-key.expired']);
  });
});

describe('licence expiry messages', () => {
  const t0 = Date.UTC(2026, 0, 1, 9, 0, 0);
  const expiry = t0 + 40 * DAY;
  const s = useTestServer({
    scheduler: false,
    seed: {
      orgs: {
        Lic: { apps: ['codeup'], admins: ['olga', 'otto'], licenceExpiresAt: expiry },
        Late: { apps: ['codeup'], admins: ['olga'], licenceExpiresAt: expiry + 5 * DAY },
      },
      users: {
        olga: { password: PASSWORD, org: 'Lic' },
        otto: { password: PASSWORD },
        pete: { password: PASSWORD, org: 'Lic' },
      },
    },
  });
  const at = async (when: number, passes = 1) => {
    s.clock.set(when);
    for (let i = 0; i < passes; i++) await s.app.runScheduled();
    return s.signIn('olga', 'otto', 'pete');
  };
  const of = async (c: Client, org: string) =>
    (await inbox(c, 'org.licence-expiring')).filter((m) => m.body.includes(`license of ${org} `));

  it('30, 7 and 1 days before, to the organisation’s admins only, once each; after downtime the latest stage', async () => {
    let c = await at(t0);
    expect(await of(c.olga, 'Lic')).toEqual([]);
    c = await at(expiry - 29 * DAY, 3);
    const [m] = await of(c.olga, 'Lic');
    expect(m).toMatchObject({ app: 'organization', sensitive: false, title: 'License about to expire' });
    expect(m.body).toContain(`valid through ${ymd(expiry - 1)}`);
    expect(await of(c.olga, 'Lic')).toHaveLength(1);
    expect(await of(c.otto, 'Lic')).toHaveLength(1);
    expect(await of(c.pete, 'Lic')).toEqual([]);
    c = await at(expiry - 6 * DAY, 3);
    expect(await of(c.olga, 'Lic')).toHaveLength(2);
    c = await at(expiry - 12 * HOUR, 3);
    expect(await of(c.olga, 'Lic')).toHaveLength(3);
    expect(await of(c.otto, 'Lic')).toHaveLength(3);
    expect(await of(c.pete, 'Lic')).toEqual([]);
    // Expired: no further licence message (the notice pages tell members from then on).
    c = await at(expiry + DAY, 2);
    expect(await of(c.olga, 'Lic')).toHaveLength(3);
    // "Late" (5 days later) was seen 45 and 34 days before its end (nothing), 11 days before (30-day notice),
    // 5.5 and 4 days before (7-day notice, once): the 1-day stage it has not reached.
    const late = await of(c.olga, 'Late');
    expect(late).toHaveLength(2);
    expect(await of(c.pete, 'Late')).toEqual([]);
  });
});

describe('two service instances on one database', () => {
  const users = ['u1', 'u2', 'u3', 'u4', 'u5'];
  const s: TestServer = useTestServer({
    scheduler: false,
    seed: {
      orgs: { Twin: { apps: ['codeup'], admins: ['u1', 'u2'], licenceExpiresAt: Date.UTC(2026, 0, 10) } },
      users: Object.fromEntries(users.map((u) => [u, { password: PASSWORD, org: 'Twin' }])),
      signIn: users,
    },
  });
  let twin: FastifyInstance | undefined;
  afterAll(async () => {
    await twin?.close();
  });

  it('running both instances’ passes in parallel makes each expiry message exactly once', async () => {
    twin = await startTwin(s, { scheduler: false });
    const t0 = s.clock.now().getTime();
    // Per user: one token past its expiry, one in its last day, one within 7 days, one far off; and one SSH key.
    for (const u of users) {
      const c = s.clients[u];
      await createToken(c, `${u}-expired`, t0 + DAY);
      await createToken(c, `${u}-1d`, t0 + 2 * DAY + 12 * HOUR);
      await createToken(c, `${u}-7d`, t0 + 6 * DAY);
      await createToken(c, `${u}-far`, t0 + 60 * DAY);
      await addKey(c, `${u}-key`, makeKey(keyDir, `twin-${u}`), t0 + 5 * DAY);
    }
    s.clock.set(t0 + 2 * DAY);
    for (let round = 0; round < 5; round++) {
      await Promise.all([s.app.runScheduled(), twin.runScheduled(), s.app.runScheduled(), twin.runScheduled()]);
    }
    // Exactly once per (recipient, event): the table holds no duplicate key and every expected message.
    const rows = await s.ctx.db
      .selectFrom('inbox_messages')
      .select(['user_id', 'type', 'event_key'])
      .where('event_key', 'is not', null)
      .execute();
    const keys = rows.map((r) => `${r.user_id} ${r.event_key}`);
    expect(new Set(keys).size).toBe(keys.length);
    const perType = (type: string) => rows.filter((r) => r.type === type).length;
    expect(perType('token.expired')).toBe(users.length);
    expect(perType('token.expiring')).toBe(2 * users.length);
    expect(perType('ssh-key.expiring')).toBe(users.length);
    // The licence ends 6 days and 15 hours after t0 + 2 days: the 7-day notice, to the two admins.
    expect(perType('org.licence-expiring')).toBe(2);
    expect(rows).toHaveLength(4 * users.length + 2);

    // What each user's client sees agrees.
    const clients = await s.signIn(...users);
    for (const u of users) {
      const msgs = await inbox(
        clients[u],
        'token.expiring',
        'token.expired',
        'ssh-key.expiring',
        'org.licence-expiring',
      );
      const names = msgs.map((m) => `${m.type} ${/"([^"]+)"/.exec(m.body)?.[1] ?? ''}`).sort();
      const expected = [
        `ssh-key.expiring ${u}-key`,
        `token.expired ${u}-expired`,
        `token.expiring ${u}-1d`,
        `token.expiring ${u}-7d`,
        ...(u === 'u1' || u === 'u2' ? ['org.licence-expiring '] : []),
      ].sort();
      expect([u, names]).toEqual([u, expected]);
    }

    // Another round of parallel passes an hour later still adds nothing.
    s.clock.advance(HOUR);
    await Promise.all([s.app.runScheduled(), twin.runScheduled()]);
    const after = await s.ctx.db
      .selectFrom('inbox_messages')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('event_key', 'is not', null)
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(rows.length);
  });
});
