import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, INBOX, orgSeed, useTestServer, type Answer } from '../kit/server';
import { expectNoSecrets } from '../kit/secrets';
import type { AccountEventBody } from '../../server/events';
import { INBOX_BATCH_MAX, INBOX_PAGE_SIZE_MAX } from '../../plugins/notifications/limits';
import type { InboxMessage } from '../../plugins/notifications/contract';

// The message center's calls over real HTTP (both dialects): every call acts on the caller's own messages only.
// Messages are put in through the service's own event bus (what the producers use), so each test reads them the
// way a client does; the database is read only to prove that nothing of anyone else's changed.

const SEC = 1000;

/** A message of the inbox as a client reads it (the contract's shape). */
type Msg = InboxMessage;

/** One event of each application, sensitive or not (what the producers emit). */
const EVENTS = {
  avatar: { type: 'avatar.changed' },
  token: { type: 'token.created', name: 'ci', expiresAt: null },
  packages: { type: 'packages.password-reset' },
  notice: { type: 'org.notice', org: 'Acme', title: 'Maintenance', body: 'Tonight 22:00 UTC' },
} satisfies Record<string, AccountEventBody>;

describe('inbox calls', () => {
  const s = useTestServer({ seed: orgSeed('Acme', ['alice', 'bob'], { signIn: true }) });
  let bob: Client;
  let n = 0;

  beforeAll(() => {
    ({ bob } = s.clients);
  });
  afterAll(() => {
    // No session cookie or CSRF token of any client reached the service's log.
    expectNoSecrets(
      s.logs,
      Object.values(s.clients).flatMap((c) => [c.cookieHeader(), c.csrf ?? '']),
    );
  });

  /** A new signed-in user with an empty inbox (each test starts from its own). */
  async function fresh(): Promise<{ c: Client; id: string }> {
    const name = `user${++n}`;
    const made = await s.seed({ users: { [name]: { password: 'Secret#123', org: 'Acme' } }, signIn: [name] });
    return { c: made.clients[name], id: made.users[name].id };
  }
  /** Puts `count` messages of `event` into a user's inbox (the clock does not move: they share one created_at). */
  async function give(userId: string, event: AccountEventBody, count = 1): Promise<void> {
    for (let i = 0; i < count; i++) await s.ctx.events.emit({ ...event, to: { userId } });
  }
  const list = (c: Client, body: Record<string, unknown> = {}, headers?: Record<string, string>) =>
    c.req('POST', `${INBOX}:list`, { body, headers });
  /** Every message of a user, newest first (one page of the largest size; the tests keep fewer). */
  const all = async (c: Client, body: Record<string, unknown> = {}): Promise<Msg[]> => {
    const a = await list(c, { page_size: INBOX_PAGE_SIZE_MAX, ...body });
    expect(a.status, a.text).toBe(200);
    expect(a.json.pages.next_token).toBeNull();
    return a.json.messages;
  };
  const counts = (c: Client) => c.req('POST', `${INBOX}/unread:countGroupByApp`);
  const readOne = (c: Client, id: string) => c.req('POST', `${INBOX}/${encodeURIComponent(id)}/read`);
  const readMany = (c: Client, body: Record<string, unknown>) => c.req('POST', `${INBOX}/read`, { body });
  const del = (c: Client, id: string) => c.req('DELETE', `${INBOX}/${encodeURIComponent(id)}`);
  const batchDelete = (c: Client, ids: string[]) => c.req('POST', `${INBOX}:batchDelete`, { body: { ids } });
  const deleteRead = (c: Client, body: Record<string, unknown> = {}) => c.req('POST', `${INBOX}:deleteRead`, { body });
  const rowsOf = (userId: string) =>
    s.ctx.db.selectFrom('inbox_messages').select(['id', 'read_at']).where('user_id', '=', userId).execute();
  const expectError = (a: Answer, status: number, code?: string) => {
    expect(a.status, a.text).toBe(status);
    if (code) expect(a.json.code).toBe(code);
  };

  it('lists newest first with tabs and an application filter; a new user has an empty inbox', async () => {
    const { c, id } = await fresh();
    const empty = await list(c);
    expect(empty.status).toBe(200);
    expect(empty.json).toEqual({ messages: [], pages: { next_token: null } });

    await give(id, EVENTS.avatar);
    s.clock.advance(SEC);
    await give(id, EVENTS.packages);
    s.clock.advance(SEC);
    await give(id, EVENTS.notice);
    s.clock.advance(SEC);
    await give(id, EVENTS.token);
    const msgs = await all(c);
    expect(msgs.map((m) => m.type)).toEqual([
      'token.created',
      'org.notice',
      'packages.password-reset',
      'avatar.changed',
    ]);
    const times = msgs.map((m) => Date.parse(m.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(msgs[0]).toMatchObject({ app: 'account', read: false, sensitive: true });
    expect(msgs[1]).toMatchObject({ app: 'organization', sensitive: false, title: 'Maintenance', link: null });
    expect(msgs[2]).toMatchObject({ app: 'packages', sensitive: true, link: '/users/settings/packagesCredential' });
    expect(msgs[0].created_at).toBe(s.clock.now().toISOString());

    expect((await all(c, { app: 'account' })).map((m) => m.type)).toEqual(['token.created', 'avatar.changed']);
    expect((await all(c, { app: 'packages' })).map((m) => m.type)).toEqual(['packages.password-reset']);
    expect((await all(c, { app: 'organization' })).map((m) => m.type)).toEqual(['org.notice']);

    expect((await readOne(c, msgs[1].id)).status).toBe(200);
    const unread = await all(c, { tab: 'unread' });
    expect(unread.map((m) => m.id)).toEqual([msgs[0].id, msgs[2].id, msgs[3].id]);
    expect((await all(c, { tab: 'all' })).find((m) => m.id === msgs[1].id)?.read).toBe(true);
    expect(await all(c, { tab: 'unread', app: 'organization' })).toEqual([]);
    expect((await all(c, { tab: 'unread', app: 'account' })).map((m) => m.type)).toEqual([
      'token.created',
      'avatar.changed',
    ]);
  });

  it('pages 45 messages (many sharing one created_at) as 20/20/5, keyset, with no duplicate or gap', async () => {
    const { c, id } = await fresh();
    // 15 instants, 3 messages each: ties on created_at are broken by id.
    for (let t = 0; t < 15; t++) {
      await give(id, t % 2 ? EVENTS.avatar : EVENTS.notice, 3);
      s.clock.advance(SEC);
    }
    const expected = (await rowsOf(id)).map((r) => r.id);
    expect(expected).toHaveLength(45);

    const seen: Msg[] = [];
    const sizes: number[] = [];
    let token: string | null = null;
    do {
      const a: Answer = await list(c, { page_size: 20, ...(token ? { next_token: token } : {}) });
      expect(a.status, a.text).toBe(200);
      sizes.push(a.json.messages.length);
      seen.push(...a.json.messages);
      token = a.json.pages.next_token;
    } while (token);
    expect(sizes).toEqual([20, 20, 5]);
    expect(new Set(seen.map((m) => m.id)).size).toBe(45);
    expect(seen.map((m) => m.id).sort()).toEqual([...expected].sort());
    // Newest first; within one instant a fixed order (id descending), so a page boundary inside a tie is exact.
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1], seen[i]];
      expect(Date.parse(a.created_at)).toBeGreaterThanOrEqual(Date.parse(b.created_at));
      if (a.created_at === b.created_at) expect(a.id > b.id).toBe(true);
    }
    expect(seen.map((m) => m.id)).toEqual((await all(c)).map((m) => m.id));

    // The same through a filter: 24 notices (8 instants × 3) → 20 + 4; unread tab after reading 10.
    const notices: string[] = [];
    let page = await list(c, { app: 'organization', page_size: 20 });
    notices.push(...page.json.messages.map((m: Msg) => m.id));
    page = await list(c, { app: 'organization', page_size: 20, next_token: page.json.pages.next_token });
    notices.push(...page.json.messages.map((m: Msg) => m.id));
    expect(page.json.pages.next_token).toBeNull();
    expect(new Set(notices).size).toBe(24);
    expect((await readMany(c, { ids: seen.slice(0, 10).map((m) => m.id) })).json).toEqual({ count: 10, kept: 0 });
    const unread: string[] = [];
    token = null;
    do {
      const a: Answer = await list(c, { tab: 'unread', page_size: 7, ...(token ? { next_token: token } : {}) });
      unread.push(...a.json.messages.map((m: Msg) => m.id));
      token = a.json.pages.next_token;
    } while (token);
    expect(unread).toEqual(seen.slice(10).map((m) => m.id));

    // Messages arriving while a client pages (newer than its position) neither repeat nor shift the next pages.
    const first = await list(c, { page_size: 20 });
    s.clock.advance(SEC);
    await give(id, EVENTS.notice, 5);
    const second = await list(c, { page_size: 20, next_token: first.json.pages.next_token });
    expect(second.json.messages.map((m: Msg) => m.id)).toEqual(seen.slice(20, 40).map((m) => m.id));
    await batchDelete(
      c,
      (await rowsOf(id)).map((r) => r.id).filter((x) => !seen.some((m) => m.id === x)),
    );

    // A page size that fits exactly ends with a null token (no empty extra page).
    const exact = await list(c, { page_size: 45 });
    expect(exact.json.messages).toHaveLength(45);
    expect(exact.json.pages.next_token).toBeNull();
  });

  it('refuses a bad next_token (InboxPageTokenInvalid), and page sizes outside 1..100', async () => {
    const { c } = await fresh();
    const garbage = [
      'not-a-token',
      Buffer.from('abc.def').toString('base64url'),
      Buffer.from('123.xyz').toString('base64url'),
      Buffer.from("1' OR 1=1 --").toString('base64url'),
      '%%%',
    ];
    for (const t of garbage) expectError(await list(c, { next_token: t }), 400, 'InboxPageTokenInvalid');
    expectError(await list(c, { next_token: 'x'.repeat(201) }), 400);
    expectError(await list(c, { page_size: INBOX_PAGE_SIZE_MAX + 1 }), 400);
    expectError(await list(c, { page_size: 0 }), 400);
    expectError(await list(c, { tab: 'starred' }), 400);
    expectError(await list(c, { app: 'codeup' }), 400);
    expectError(await list(c, { user_id: s.users.bob.id }), 400);
    expect((await list(c, { page_size: INBOX_PAGE_SIZE_MAX })).status).toBe(200);
  });

  it('renders titles and bodies in the request’s language (cookie first, then Accept-Language)', async () => {
    const { c, id } = await fresh();
    await give(id, EVENTS.token);
    const en = (await list(c, {}, { 'accept-language': 'en-US,en;q=0.9' })).json.messages[0];
    const zh = (await list(c, {}, { 'accept-language': 'zh-CN,zh;q=0.9' })).json.messages[0];
    expect(en.title).toBe('Personal access token created');
    expect(en.body).toContain('"ci"');
    expect(zh.title).toBe('已创建个人访问令牌');
    expect(zh.body).toContain('“ci”');
    const cookie = (locale: string) => ({ cookie: `${c.cookieHeader()}; ak_user_locale=${locale}` });
    expect((await list(c, {}, { ...cookie('en_US'), 'accept-language': 'zh-CN' })).json.messages[0].title).toBe(
      'Personal access token created',
    );
    expect((await list(c, {}, { ...cookie('zh_CN'), 'accept-language': 'en-US' })).json.messages[0].title).toBe(
      '已创建个人访问令牌',
    );
    // Errors of the slice speak the language too.
    expect((await readOne(c, 'f'.repeat(32))).json.message).toBeDefined();
    const enErr = await c.req('POST', `${INBOX}/${'f'.repeat(32)}/read`, { headers: { 'accept-language': 'en-US' } });
    expect(enErr.json.message).toBe('The message does not exist.');
    const zhErr = await c.req('POST', `${INBOX}/${'f'.repeat(32)}/read`, { headers: { 'accept-language': 'zh-CN' } });
    expect(zhErr.json.message).toBe('消息不存在。');
  });

  it('reads one message (idempotent); another user’s id and unknown ids answer 404', async () => {
    const { c, id } = await fresh();
    await give(id, EVENTS.avatar);
    await give(s.users.bob.id, EVENTS.avatar);
    const [mine] = await all(c);
    const theirs = (await all(bob))[0];
    expect(theirs.read).toBe(false);

    expect((await readOne(c, mine.id)).json).toEqual({ success: true });
    expect((await readOne(c, mine.id)).json).toEqual({ success: true });
    expect((await all(c))[0].read).toBe(true);

    expectError(await readOne(c, theirs.id), 404, 'InboxMessageNotFound');
    expectError(await readOne(c, 'f'.repeat(32)), 404, 'InboxMessageNotFound');
    expectError(await readOne(c, 'nope'), 404, 'InboxMessageNotFound');
    expectError(await readOne(c, 'x'.repeat(64)), 404, 'InboxMessageNotFound');
    expectError(await readOne(c, "' OR '1'='1"), 404, 'InboxMessageNotFound');
    expectError(await readOne(c, '✓'), 404, 'InboxMessageNotFound');
    expectError(await readOne(c, 'x'.repeat(65)), 400);
    // Bob's message is still unread, for him.
    expect((await all(bob)).find((m) => m.id === theirs.id)?.read).toBe(false);
  });

  it('reads many: listed ids, all of one application, or all; others’ ids change nothing', async () => {
    const { c, id } = await fresh();
    await give(id, EVENTS.avatar, 3);
    await give(id, EVENTS.packages, 2);
    await give(id, EVENTS.notice, 2);
    await give(s.users.bob.id, EVENTS.notice, 2);
    const msgs = await all(c);
    const bobs = (await all(bob, { tab: 'unread', app: 'organization' })).map((m) => m.id);
    expect(bobs.length).toBeGreaterThanOrEqual(2);
    const account = msgs.filter((m) => m.app === 'account').map((m) => m.id);

    // Two of mine and two of Bob's: only mine change.
    expect((await readMany(c, { ids: [account[0], account[1], ...bobs.slice(0, 2)] })).json).toEqual({
      count: 2,
      kept: 0,
    });
    expect((await all(bob, { tab: 'unread', app: 'organization' })).map((m) => m.id)).toEqual(bobs);
    // Again: nothing left to mark.
    expect((await readMany(c, { ids: [account[0]] })).json).toEqual({ count: 0, kept: 0 });

    expect((await readMany(c, { app: 'packages' })).json).toEqual({ count: 2, kept: 0 });
    expect((await all(c, { tab: 'unread' })).map((m) => m.app).sort()).toEqual([
      'account',
      'organization',
      'organization',
    ]);
    expect((await readMany(c, {})).json).toEqual({ count: 3, kept: 0 });
    expect(await all(c, { tab: 'unread' })).toEqual([]);
    expect((await all(bob, { tab: 'unread', app: 'organization' })).map((m) => m.id)).toEqual(bobs);

    expectError(await readMany(c, { ids: [] }), 400);
    expectError(await readMany(c, { ids: ['a', 'a'] }), 400);
    expectError(await readMany(c, { ids: Array.from({ length: INBOX_BATCH_MAX + 1 }, (_, i) => `id${i}`) }), 400);
    expectError(await readMany(c, { app: 'codeup' }), 400);
  });

  it('deletes one: 404 for another user’s, 409 for an unread security message until it is read', async () => {
    const { c, id } = await fresh();
    await give(id, EVENTS.avatar);
    s.clock.advance(SEC);
    await give(id, EVENTS.token);
    await give(s.users.bob.id, EVENTS.avatar);
    const [token, avatar] = await all(c);
    expect(token).toMatchObject({ type: 'token.created', sensitive: true, read: false });
    const theirs = (await all(bob))[0];

    expectError(await del(c, theirs.id), 404, 'InboxMessageNotFound');
    expect((await all(bob)).some((m) => m.id === theirs.id)).toBe(true);
    expectError(await del(c, 'f'.repeat(32)), 404, 'InboxMessageNotFound');

    // An unread, non-sensitive message may go; an unread security message may not.
    expect((await del(c, avatar.id)).json).toEqual({ success: true });
    const refused = await del(c, token.id);
    expectError(refused, 409, 'InboxMessageUnreadSensitive');
    expect((await all(c)).map((m) => m.id)).toEqual([token.id]);
    await readOne(c, token.id);
    expect((await del(c, token.id)).json).toEqual({ success: true });
    expect(await all(c)).toEqual([]);
    expectError(await del(c, token.id), 404, 'InboxMessageNotFound');
  });

  it('batch delete: 101 ids are refused and nothing goes; only my ids go; unread security ones are kept', async () => {
    const { c, id } = await fresh();
    await give(id, EVENTS.avatar, INBOX_BATCH_MAX + 1);
    const mine = (await rowsOf(id)).map((r) => r.id);
    expect(mine).toHaveLength(101);
    const tooMany = await batchDelete(c, mine);
    expectError(tooMany, 400);
    expect(await rowsOf(id)).toHaveLength(101);
    expectError(await batchDelete(c, []), 400);
    expectError(await batchDelete(c, [mine[0], mine[0]]), 400);
    expect((await batchDelete(c, mine.slice(0, 100))).json).toEqual({ count: 100, kept: 0 });
    expect(await rowsOf(id)).toHaveLength(1);

    // Mine (2 plain, 1 unread sensitive, 1 read sensitive), Bob's, and unknown ids in one call.
    const { c: c2, id: id2 } = await fresh();
    await give(id2, EVENTS.avatar, 2);
    await give(id2, EVENTS.token, 2);
    await give(s.users.bob.id, EVENTS.token);
    await give(s.users.bob.id, EVENTS.avatar);
    const msgs = await all(c2);
    const tokens = msgs.filter((m) => m.type === 'token.created');
    await readOne(c2, tokens[0].id);
    const bobBefore = await rowsOf(s.users.bob.id);
    const bobIds = bobBefore.map((r) => r.id);
    const answer = await batchDelete(c2, [...msgs.map((m) => m.id), ...bobIds, 'f'.repeat(32), 'unknown']);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toEqual({ count: 3, kept: 1 });
    expect((await all(c2)).map((m) => m.id)).toEqual([tokens[1].id]);
    // Bob still has every message he had (read state too).
    expect(await rowsOf(s.users.bob.id)).toEqual(expect.arrayContaining(bobBefore));
    expect(await rowsOf(s.users.bob.id)).toHaveLength(bobBefore.length);
    // Only others' ids: nothing.
    expect((await batchDelete(c2, bobIds)).json).toEqual({ count: 0, kept: 0 });
    expect(await rowsOf(s.users.bob.id)).toHaveLength(bobBefore.length);
  });

  it('delete all read, of one application or all; unread ones stay', async () => {
    const { c, id } = await fresh();
    await give(id, EVENTS.avatar, 2);
    await give(id, EVENTS.packages, 2);
    await give(id, EVENTS.notice, 2);
    await give(s.users.bob.id, EVENTS.packages);
    await readMany(c, {});
    await give(id, EVENTS.avatar);
    await give(id, EVENTS.packages);
    await readMany(bob, { app: 'packages' });
    const bobBefore = await rowsOf(s.users.bob.id);

    expect((await deleteRead(c, { app: 'packages' })).json).toEqual({ count: 2, kept: 0 });
    expect((await all(c, { app: 'packages' })).map((m) => m.read)).toEqual([false]);
    expect((await deleteRead(c)).json).toEqual({ count: 4, kept: 0 });
    expect((await all(c)).map((m) => [m.app, m.read]).sort()).toEqual([
      ['account', false],
      ['packages', false],
    ]);
    expect((await deleteRead(c)).json).toEqual({ count: 0, kept: 0 });
    expect(await rowsOf(s.users.bob.id)).toHaveLength(bobBefore.length);
    expectError(await deleteRead(c, { app: 'codeup' }), 400);
  });

  it('counts unread and all messages per application, with both tabs’ totals', async () => {
    const { c, id } = await fresh();
    expect((await counts(c)).json).toEqual({ unread: 0, total: 0, apps: [] });
    await give(id, EVENTS.avatar, 3);
    await give(id, EVENTS.token, 1);
    await give(id, EVENTS.packages, 2);
    await give(id, EVENTS.notice, 4);
    await give(s.users.bob.id, EVENTS.notice, 5);
    const notices = (await all(c, { app: 'organization' })).map((m) => m.id);
    await readMany(c, { ids: notices.slice(0, 3) });
    await readMany(c, { app: 'packages' });
    const a = await counts(c);
    expect(a.status).toBe(200);
    const byApp = Object.fromEntries(a.json.apps.map((x: { app: string }) => [x.app, x]));
    expect(byApp).toEqual({
      account: { app: 'account', unread: 4, total: 4 },
      packages: { app: 'packages', unread: 0, total: 2 },
      organization: { app: 'organization', unread: 1, total: 4 },
    });
    expect([a.json.unread, a.json.total]).toEqual([5, 10]);
    // The totals agree with the lists.
    expect(await all(c, { tab: 'unread' })).toHaveLength(5);
    expect(await all(c)).toHaveLength(10);
  });

  it('answers 401 without a session and 403 without the CSRF token or X-Requested-With', async () => {
    const { c, id } = await fresh();
    await give(id, EVENTS.avatar);
    const [m] = await all(c);
    const calls: Array<[string, string, unknown]> = [
      ['POST', `${INBOX}:list`, {}],
      ['POST', `${INBOX}/unread:countGroupByApp`, undefined],
      ['POST', `${INBOX}/read`, {}],
      ['POST', `${INBOX}/${m.id}/read`, undefined],
      ['DELETE', `${INBOX}/${m.id}`, undefined],
      ['POST', `${INBOX}:batchDelete`, { ids: [m.id] }],
      ['POST', `${INBOX}:deleteRead`, {}],
    ];
    for (const [method, path, body] of calls) {
      const anon = await new Client(s.url).req(method, path, { body });
      expect([path, anon.status, anon.json?.code]).toEqual([path, 401, 'Unauthorized']);
      const noCsrf = await c.req(method, path, { body, csrf: false });
      expect([path, noCsrf.status, noCsrf.json?.code]).toEqual([path, 403, 'CsrfRejected']);
      const wrong = await c.req(method, path, { body, headers: { 'x-csrf-token': 'x'.repeat(43) } });
      expect([path, wrong.status]).toEqual([path, 403]);
      const noXhr = await c.req(method, path, { body, xhr: false });
      expect([path, noXhr.status, noXhr.json?.code]).toEqual([path, 403, 'XhrRequired']);
    }
    // None of the refused calls changed anything.
    expect((await all(c)).map((x) => [x.id, x.read])).toEqual([[m.id, false]]);
  });

  it('after sign-out the old session cookie answers 401 and the messages are untouched', async () => {
    const { c, id } = await fresh();
    await give(id, EVENTS.avatar);
    const before = await all(c);
    const cookie = c.cookieHeader();
    expect((await c.req('POST', '/users/logout', { body: {} })).status).toBe(303);
    const stale = await c.req('POST', `${INBOX}:list`, { body: {}, headers: { cookie } });
    expect(stale.status).toBe(401);
    expect((await rowsOf(id)).map((r) => r.id)).toEqual(before.map((m) => m.id));
  });

  it('housekeeping removes messages past the 180-day retention, read or not (last: it moves the clock far)', async () => {
    const { c: before, id } = await fresh();
    await give(id, EVENTS.avatar, 2);
    await readOne(before, (await all(before))[0].id);
    s.clock.advance(100 * 24 * 3600 * SEC);
    await give(id, EVENTS.token);
    s.clock.advance(81 * 24 * 3600 * SEC);
    await s.app.purge();
    const name = `user${n}`;
    const c = (await s.signIn(name))[name];
    expect((await all(c)).map((m) => m.type)).toEqual(['token.created']);
  });
});
