// Rotation and renewal of personal access tokens (issue 42, item 5): regenerating gives a new secret, shown once, and
// the old one stops at once or after the grace the member picked (at most 24 h); an expired token is re-created with
// the scopes the catalogue still offers, the others named. Both need a recent proof; another member's token is 404.
import { beforeAll, describe, expect, it } from 'vitest';
import { Client, INBOX, useTestServer, withoutRequestId } from '../kit/server';
import { isWellFormedToken } from '../../plugins/access-tokens/server/tokens';
import { TOKEN_GRACE_MINUTES_MAX } from '../../plugins/access-tokens/limits';
import { DEFAULT_REAUTH_WINDOW_MINUTES } from '../../server/config';
import { REAUTH_REQUIRED } from '../../schemas/reauth';
import { SECURITY_PATHS } from '../../plugins/security/limits';
import { expectNoSecrets } from '../kit/secrets';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const TOKENS = '/users/ajax/v1/my/tokens';
const ZH = { 'accept-language': 'zh-CN' };
const EN = { 'accept-language': 'en-US' };

describe('regenerating and re-creating personal access tokens', () => {
  const s = useTestServer({
    seed: {
      orgs: { 'Rotation Org': ['codeup', 'packages'] },
      users: {
        alice: { password: 'Secret#123', org: 'Rotation Org' },
        bob: { password: 'Secret#456', org: 'Rotation Org' },
      },
      signIn: ['alice', 'bob'],
    },
  });
  let alice: Client;
  let bob: Client;
  beforeAll(() => ({ alice, bob } = s.clients));
  /** Fresh sessions (a sign-in is a proof): after the clock moved past the idle time or the proof's window. */
  const signInAll = async () => ({ alice, bob } = await s.signIn());

  const inDays = (days: number) => new Date(s.clock.now().getTime() + days * DAY).toISOString();
  const create = async (name: string, body: Record<string, unknown> = {}) => {
    const a = await alice.req('POST', TOKENS, {
      body: { name, description: `${name} runner`, expires_at: inDays(30), token_scopes: ['base:user:read'], ...body },
    });
    expect(a.status, a.text).toBe(200);
    return a.json as { token_id: string; token: string; expires_at: string; token_scopes: string[] };
  };
  const regenerate = (c: Client, id: string, body: Record<string, unknown>, headers: Record<string, string> = EN) =>
    c.req('POST', `${TOKENS}/${id}/regenerate`, { body: { expires_at: inDays(60), ...body }, headers });
  const recreate = (c: Client, id: string, body: Record<string, unknown> = {}, headers: Record<string, string> = EN) =>
    c.req('POST', `${TOKENS}/${id}/recreate`, { body: { expires_at: inDays(90), ...body }, headers });
  const listed = async () => {
    const a = await alice.req('POST', `${TOKENS}:search`, { body: {} });
    expect(a.status, a.text).toBe(200);
    return a;
  };
  const oapi = (token: string) =>
    new Client(s.url).req('GET', '/oapi/v1/platform/user', { headers: { 'x-yunxiao-token': token }, xhr: false });
  const rows = () =>
    s.ctx.db
      .selectFrom('personal_access_tokens')
      .selectAll()
      .where('user_id', '=', s.users.alice.id)
      .orderBy('id')
      .execute();
  /** The answer's error shape in the asked language (the requestId differs per request). */
  const shape = (a: { status: number; json: Record<string, unknown> }) => ({
    status: a.status,
    ...withoutRequestId(a.json),
  });

  it('regenerates: a new secret once, the same name, description and scopes; the old one works through the grace', async () => {
    const old = await create('deploy', { token_scopes: ['base:user:read', 'codeup:repository:write'] });
    s.clock.advance(MINUTE);
    const a = await regenerate(alice, old.token_id, { grace_minutes: 60 });
    expect(a.status, a.text).toBe(200);
    const now = s.clock.now().getTime();
    const fresh = a.json.access_token;
    expect(isWellFormedToken(fresh.token)).toBe(true);
    expect(fresh.token).not.toBe(old.token);
    expect(fresh).toMatchObject({
      name: 'deploy',
      description: 'deploy runner',
      token_scopes: old.token_scopes,
      expires_at: inDays(60),
      expired: false,
      last_used_at: null,
    });
    expect(fresh.token_id).not.toBe(old.token_id);
    expect(a.json).toMatchObject({
      previous_token_id: old.token_id,
      previous_stops_at: new Date(now + 60 * MINUTE).toISOString(),
      dropped_scopes: [],
    });

    // The list shows the new token first and the old one as replaced until its grace ends; never a secret.
    const list = await listed();
    expect(list.text).not.toContain(fresh.token);
    expect(list.text).not.toContain(old.token);
    const [first, second] = list.json.access_tokens;
    expect(first).toMatchObject({ token_id: fresh.token_id, name: 'deploy' });
    expect(first).not.toHaveProperty('replaced');
    expect(second).toMatchObject({
      token_id: old.token_id,
      replaced: true,
      expires_at: new Date(now + 60 * MINUTE).toISOString(),
    });

    // Both secrets work during the grace; the old one is refused the instant it ends; the new one goes on.
    expect((await oapi(fresh.token)).status).toBe(200);
    s.clock.advance(60 * MINUTE - 1000);
    expect((await oapi(old.token)).status).toBe(200);
    s.clock.advance(1000);
    const refused = await oapi(old.token);
    expect([refused.status, refused.json.code]).toEqual([401, 'TokenInvalid']);
    expect((await oapi(fresh.token)).status).toBe(200);

    // Once the grace is over the old row leaves the list, and the housekeeping removes it.
    await signInAll();
    expect((await listed()).json.access_tokens.map((t: { token_id: string }) => t.token_id)).not.toContain(
      old.token_id,
    );
    await s.app.purge();
    expect((await rows()).map((r) => r.id)).not.toContain(old.token_id);

    // The inbox tells the owner, naming the token and when the old secret stops.
    const inbox = await alice.req('POST', `${INBOX}:list`, { body: { page_size: 100 }, headers: EN });
    const said = inbox.json.messages.find((m: { type: string }) => m.type === 'token.regenerated');
    expect(said).toMatchObject({ title: 'Personal access token regenerated' });
    expect(said.body).toContain('"deploy"');
    expect(said.body).toContain(
      `works until ${new Date(now + 60 * MINUTE).toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    );
    expect(inbox.text).not.toContain(fresh.token);
    // The security page's history keeps it too, by name, never the secret.
    const history = await alice.req('GET', `${SECURITY_PATHS.history}?group=credential&limit=100`);
    expect(history.json.entries).toContainEqual(
      expect.objectContaining({ kind: 'credential.regenerated', detail: { credential: 'token', name: 'deploy' } }),
    );
    expect(history.text).not.toContain(fresh.token);
    // Neither secret reaches the service's log.
    expectNoSecrets(s.logs, [fresh.token, old.token]);
  });

  it('stops the old secret at once without a grace, and never lets a grace outlive the old expiry', async () => {
    const old = await create('at-once');
    const a = await regenerate(alice, old.token_id, { grace_minutes: 0 });
    expect(a.status, a.text).toBe(200);
    expect(a.json.previous_stops_at).toBe(s.clock.now().toISOString());
    expect((await oapi(old.token)).status).toBe(401);
    expect((await oapi(a.json.access_token.token)).status).toBe(200);
    expect((await rows()).map((r) => r.id)).not.toContain(old.token_id);

    // A token expiring in an hour regenerated with a day's grace: its secret still stops in an hour.
    const soon = await create('soon', { expires_at: new Date(s.clock.now().getTime() + 60 * MINUTE).toISOString() });
    const b = await regenerate(alice, soon.token_id, { grace_minutes: TOKEN_GRACE_MINUTES_MAX });
    expect(b.status, b.text).toBe(200);
    expect(b.json.previous_stops_at).toBe(soon.expires_at);
  });

  it('refuses a grace over 24 hours, a past expiry, an expired or already replaced token, and changes nothing', async () => {
    const t = await create('limits');
    const before = await rows();
    for (const lang of [EN, ZH]) {
      const long = await regenerate(alice, t.token_id, { grace_minutes: TOKEN_GRACE_MINUTES_MAX + 1 }, lang);
      expect([long.status, long.json.code]).toEqual([400, 'InvalidParameter']);
      expect(long.json.requestId).toBeTruthy();
      expect(long.json.message).toBeTruthy();
    }
    const past = await regenerate(alice, t.token_id, { grace_minutes: 0, expires_at: inDays(-1) });
    expect([past.status, past.json.code]).toEqual([400, 'AccessTokenExpiryInvalid']);
    expect(await rows()).toEqual(before);

    const replaced = await regenerate(alice, t.token_id, { grace_minutes: 60 });
    expect(replaced.status).toBe(200);
    const again = await regenerate(alice, t.token_id, { grace_minutes: 60 });
    expect(shape(again)).toEqual({
      status: 409,
      code: 'AccessTokenReplaced',
      message: 'The personal access token has already been regenerated; use the new one.',
    });
    const edit = await alice.req('PUT', `${TOKENS}/${t.token_id}`, {
      body: { name: 'x', token_scopes: ['base:user:read'], expires_at: inDays(5) },
    });
    expect([edit.status, edit.json.code]).toEqual([409, 'AccessTokenReplaced']);

    const expired = await create('expired', { expires_at: new Date(s.clock.now().getTime() + MINUTE).toISOString() });
    s.clock.advance(2 * MINUTE);
    const late = await regenerate(alice, expired.token_id, { grace_minutes: 0 }, ZH);
    expect(shape(late)).toEqual({
      status: 409,
      code: 'AccessTokenExpired',
      message: '访问令牌已过期，不能再编辑或重新生成，请在列表中重新创建。',
    });
  });

  it('needs a recent proof: without one 403 ReauthRequired in both languages, and nothing changes', async () => {
    await signInAll();
    const t = await create('proof');
    const expired = await create('proof-expired', {
      expires_at: new Date(s.clock.now().getTime() + MINUTE).toISOString(),
    });
    s.clock.advance(DEFAULT_REAUTH_WINDOW_MINUTES * MINUTE + 1000);
    const before = await rows();
    const en = await regenerate(alice, t.token_id, { grace_minutes: 60 }, EN);
    expect(shape(en)).toEqual({
      status: 403,
      code: REAUTH_REQUIRED,
      message: 'Please confirm it is you: enter your password again to go on.',
    });
    const zh = await recreate(alice, expired.token_id, {}, ZH);
    expect(shape(zh)).toEqual({ status: 403, code: REAUTH_REQUIRED, message: '请确认是你本人：重新输入密码后继续。' });
    expect(await rows()).toEqual(before);
    expect((await oapi(t.token)).status).toBe(200);
  });

  it('answers 404 for another member’s token, in both languages, and leaves it alone', async () => {
    await signInAll();
    const t = await create('mine');
    const gone = await create('mine-expired', { expires_at: new Date(s.clock.now().getTime() + MINUTE).toISOString() });
    s.clock.advance(2 * MINUTE);
    const before = await rows();
    expect(shape(await regenerate(bob, t.token_id, { grace_minutes: 0 }, EN))).toEqual({
      status: 404,
      code: 'AccessTokenNotFound',
      message: 'The personal access token does not exist.',
    });
    expect(shape(await recreate(bob, gone.token_id, {}, ZH))).toEqual({
      status: 404,
      code: 'AccessTokenNotFound',
      message: '访问令牌不存在。',
    });
    expect(shape(await regenerate(bob, 'no-such-token', { grace_minutes: 0 }, ZH))).toEqual({
      status: 404,
      code: 'AccessTokenNotFound',
      message: '访问令牌不存在。',
    });
    expect(await rows()).toEqual(before);
    expect((await oapi(t.token)).status).toBe(200);
  });

  it('keeps an expired token listed, and re-creates it with its scopes, naming the ones no longer offered', async () => {
    await signInAll();
    const old = await create('nightly', {
      token_scopes: ['base:user:read', 'codeup:repository:write', 'organization:member:write'],
      expires_at: new Date(s.clock.now().getTime() + DAY).toISOString(),
    });
    // Since then the catalogue changed: one grant is gone, one resource is read-only now (as an old row would be).
    await s.ctx.db
      .updateTable('personal_access_tokens')
      .set({
        scopes: JSON.stringify([
          'base:user:read',
          'codeup:repository:write',
          'codeup:retired:read',
          'organization:role:write',
        ]),
      })
      .where('id', '=', old.token_id)
      .execute();
    // A year later (and the housekeeping ran) the expired token is still listed, as expired.
    s.clock.advance(365 * DAY);
    await s.app.purge();
    await signInAll();
    const listedOld = (await listed()).json.access_tokens.find(
      (t: { token_id: string }) => t.token_id === old.token_id,
    );
    expect(listedOld).toMatchObject({ name: 'nightly', expired: true });

    // A live token cannot be re-created (it is regenerated instead).
    const live = await create('live');
    for (const [lang, message] of [
      [EN, 'The personal access token has not expired yet; regenerate it instead.'],
      [ZH, '访问令牌尚未过期，请改用“重新生成”。'],
    ] as const)
      expect(shape(await recreate(alice, live.token_id, {}, lang))).toEqual({
        status: 409,
        code: 'AccessTokenNotExpired',
        message,
      });

    const a = await recreate(alice, old.token_id);
    expect(a.status, a.text).toBe(200);
    const fresh = a.json.access_token;
    expect(isWellFormedToken(fresh.token)).toBe(true);
    expect(fresh).toMatchObject({
      name: 'nightly',
      description: 'nightly runner',
      expires_at: inDays(90),
      expired: false,
    });
    expect([...fresh.token_scopes].sort()).toEqual(
      ['base:user:read', 'codeup:repository:write', 'organization:role:read'].sort(),
    );
    expect(a.json).toMatchObject({
      previous_token_id: old.token_id,
      previous_stops_at: old.expires_at,
      dropped_scopes: ['codeup:retired:read', 'organization:role:write'],
    });
    expect((await oapi(fresh.token)).status).toBe(200);
    expect((await oapi(old.token)).status).toBe(401);
    // The new token takes the expired one's place; a second re-create finds nothing.
    const ids = (await listed()).json.access_tokens.map((t: { token_id: string }) => t.token_id);
    expect(ids).toContain(fresh.token_id);
    expect(ids).not.toContain(old.token_id);
    expect((await recreate(alice, old.token_id)).status).toBe(404);

    const inbox = await alice.req('POST', `${INBOX}:list`, { body: { page_size: 100 }, headers: ZH });
    const said = inbox.json.messages.find((m: { type: string }) => m.type === 'token.recreated');
    expect(said.title).toBe('已重新创建过期的个人访问令牌');
    expect(said.body).toContain('已不再提供的权限范围未保留：codeup:retired:read、organization:role:write。');
    const history = await alice.req('GET', `${SECURITY_PATHS.history}?group=credential&limit=100`);
    expect(history.json.entries).toContainEqual(
      expect.objectContaining({ kind: 'credential.recreated', detail: { credential: 'token', name: 'nightly' } }),
    );
  });
});
