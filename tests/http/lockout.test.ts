import { describe, expect, it, vi } from 'vitest';
import { Client, useTestServer, withoutRequestId, type TestServer } from '../kit/server';

const HOUR = 60 * 60 * 1000;

async function attempt(s: TestServer, username: string, password: string) {
  return new Client(s.url).req('POST', '/users/ajax/login', { body: { username, password } });
}

describe('sign-in lockout', () => {
  const users = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank'].map((u) => [u, { password: 'Secret#123' }] as const);
  const s = useTestServer({ seed: { users: Object.fromEntries(users) } });

  it('answers unknown and existing names identically: 4 × incorrect, then locked (even with the right password)', async () => {
    const seen: Record<string, Array<[number, unknown]>> = { alice: [], ghost: [] };
    for (const name of ['alice', 'ghost']) {
      for (let i = 0; i < 6; i++) {
        const a = await attempt(s, name, 'Wrong#999');
        seen[name].push([a.status, withoutRequestId(a.json)]);
      }
      const right = await attempt(s, name, 'Secret#123');
      seen[name].push([right.status, withoutRequestId(right.json)]);
    }
    expect(seen.alice).toEqual(seen.ghost);
    expect(seen.alice.map(([st]) => st)).toEqual([401, 401, 401, 401, 423, 423, 423]);
    expect(seen.alice[0][1]).toMatchObject({ code: 'AccountOrPasswordIncorrect', message: '账号或密码错误。' });
    expect(seen.alice[4][1]).toMatchObject({ code: 'AccountLocked' });
    const check = async (n: string) =>
      withoutRequestId((await new Client(s.url).req('GET', `/users/ajax/users/${n}/check`)).json);
    expect(await check('alice')).toEqual(await check('ghost'));
    expect(await check('alice')).toEqual({ locked: true, need_captcha: false });
  });

  it('spends an argon2 check on unknown names too, so timing does not reveal them', async () => {
    const dummy = vi.spyOn(s.ctx.hasher, 'dummyVerify');
    const real = vi.spyOn(s.ctx.hasher, 'verify');
    await attempt(s, 'no-such-user-x', 'Wrong#999');
    expect(dummy).toHaveBeenCalledTimes(1);
    await attempt(s, 'frank', 'Wrong#999');
    expect(dummy).toHaveBeenCalledTimes(1);
    expect(real.mock.calls.length).toBeGreaterThanOrEqual(2);
    dummy.mockRestore();
    real.mockRestore();
    await s.ctx.lockout.unlock('frank');
  });

  it('counts exactly under 20 parallel attempts and unlocks after one hour', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => attempt(s, 'bob', 'Wrong#999')));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((x) => x === 401)).toHaveLength(4);
    expect(statuses.filter((x) => x === 423)).toHaveLength(16);
    expect((await attempt(s, 'bob', 'Secret#123')).status).toBe(423);
    s.clock.advance(HOUR - 1000);
    expect((await attempt(s, 'bob', 'Secret#123')).status).toBe(423);
    s.clock.advance(1000);
    expect((await attempt(s, 'bob', 'Secret#123')).status).toBe(200);
  });

  it('counts exactly under 20 parallel attempts for an unknown name too', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => attempt(s, 'nobody-here', 'Wrong#999')));
    expect(answers.filter((a) => a.status === 401)).toHaveLength(4);
    expect(answers.filter((a) => a.status === 423)).toHaveLength(16);
  });

  it('shares one counter between case variants of a name', async () => {
    for (const v of ['Carol', 'CAROL', 'carol', 'cArOl']) expect((await attempt(s, v, 'Wrong#999')).status).toBe(401);
    expect((await attempt(s, 'caROL', 'Wrong#999')).status).toBe(423);
    expect((await attempt(s, 'carol', 'Secret#123')).status).toBe(423);
  });

  it('resets the count after a successful sign-in', async () => {
    for (let i = 0; i < 4; i++) expect((await attempt(s, 'dave', 'Wrong#999')).status).toBe(401);
    expect((await attempt(s, 'dave', 'Secret#123')).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await attempt(s, 'dave', 'Wrong#999')).status).toBe(401);
    expect((await attempt(s, 'dave', 'Wrong#999')).status).toBe(423);
  });

  it('starts counting afresh after a lock expires', async () => {
    for (let i = 0; i < 5; i++) await attempt(s, 'erin', 'Wrong#999');
    s.clock.advance(HOUR);
    for (let i = 0; i < 4; i++) expect((await attempt(s, 'erin', 'Wrong#999')).status).toBe(401);
    expect((await attempt(s, 'erin', 'Wrong#999')).status).toBe(423);
  });

  it('an admin unlock lets the right password in at once', async () => {
    for (let i = 0; i < 5; i++) await attempt(s, 'frank', 'Wrong#999');
    expect((await attempt(s, 'frank', 'Secret#123')).status).toBe(423);
    expect(await s.ctx.lockout.unlock('FRANK')).toBe(true);
    expect((await attempt(s, 'frank', 'Secret#123')).status).toBe(200);
  });
});
