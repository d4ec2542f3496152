import { beforeAll, describe, expect, it } from 'vitest';
import { Client, orgSeed, useTestServer } from '../kit/server';
import { bindIdentity } from '../../server/services/identities';

const IDENTITIES = '/individual/proxy/my/identities';

describe('third-party and identity-provider bindings', () => {
  const s = useTestServer({ seed: orgSeed('Acme', ['alice', 'bob'], { signIn: true }) });
  let alice: Client;
  let bob: Client;

  beforeAll(() => {
    ({ alice, bob } = s.clients);
  });

  it('answers an empty list before anything is bound, and needs a session', async () => {
    expect((await alice.req('GET', IDENTITIES)).json).toEqual({ results: [] });
    expect((await new Client(s.url).req('GET', IDENTITIES)).status).toBe(401);
  });

  it('lists the rows the admin binds, only the user’s own', async () => {
    await bindIdentity(s.ctx, { username: 'alice', provider: 'dingtalk', openId: 'ding-42' });
    s.clock.advance(1000);
    await bindIdentity(s.ctx, { username: 'alice', provider: 'idp', name: 'Corp LDAP' });
    await bindIdentity(s.ctx, { username: 'bob', provider: 'feishu', openId: 'ou_7' });
    const a = await alice.req('GET', IDENTITIES);
    expect(a.json.results).toEqual([
      expect.objectContaining({ provider: 'dingtalk', credential: 'dingtalk', open_id: 'ding-42', name: 'DingTalk' }),
      expect.objectContaining({ provider: 'idp', credential: 'idp:corp ldap', open_id: 'alice', name: 'Corp LDAP' }),
    ]);
    const b = await bob.req('GET', IDENTITIES);
    expect(b.json.results).toEqual([expect.objectContaining({ provider: 'feishu', open_id: 'ou_7' })]);
  });

  it('keeps one account per provider and one user per external account', async () => {
    await bindIdentity(s.ctx, { username: 'alice', provider: 'dingtalk', openId: 'ding-43' });
    const a = await alice.req('GET', IDENTITIES);
    expect(a.json.results.filter((r: { provider: string }) => r.provider === 'dingtalk')).toEqual([
      expect.objectContaining({ open_id: 'ding-43' }),
    ]);
    await expect(bindIdentity(s.ctx, { username: 'bob', provider: 'dingtalk', openId: 'ding-43' })).rejects.toThrow(
      'already bound to another user',
    );
  });
});
