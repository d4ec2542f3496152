import { describe, expect, it, vi } from 'vitest';
import { useTestServer, withoutRequestId, type Client, type TestServer } from '../kit/server';
import { clientFrom, freshAddress, solveSliders } from '../kit/captcha';
import { SESSION_COOKIE } from '../../server/auth/sessions';

const HOUR = 60 * 60 * 1000;
const RIGHT = 'Secret#123';
const WRONG = 'Wrong#999';

/**
 * One sign-in from `address` (each test acts from its own, so the per-address failure count of one test does not
 * ask another's attempts for the slider), with a slider pass when given.
 */
async function attempt(s: TestServer, address: string, username: string, password: string, pass?: string) {
  return clientFrom(s.url, address).req('POST', '/users/ajax/login', {
    body: { username, password, ...(pass ? { captcha_pass: pass } : {}) },
  });
}

const check = async (c: Client, name: string) =>
  withoutRequestId((await c.req('GET', `/users/ajax/users/${encodeURIComponent(name)}/check`)).json);

describe('sign-in lockout', () => {
  const users = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'mallory'];
  const s = useTestServer({
    env: { TRUST_PROXY: 'loopback' },
    seed: { users: Object.fromEntries(users.map((u) => [u, { password: RIGHT }])) },
  });

  /**
   * Spies on password evaluations until `restore`: `real` counts `hasher.verify` calls, `dummy` the unknown-name
   * stand-ins (`dummyVerify`, which itself runs one `verify` against a throwaway hash).
   */
  function countEvaluations() {
    const real = vi.spyOn(s.ctx.hasher, 'verify');
    const dummy = vi.spyOn(s.ctx.hasher, 'dummyVerify');
    return {
      real: () => real.mock.calls.length,
      dummy: () => dummy.mock.calls.length,
      restore: () => {
        real.mockRestore();
        dummy.mockRestore();
      },
    };
  }

  it('answers unknown and existing names identically: 2 × incorrect, then the slider is required', async () => {
    const seen: Record<string, Array<[number, unknown]>> = { alice: [], ghost: [] };
    for (const name of ['alice', 'ghost']) {
      const address = freshAddress();
      for (let i = 0; i < 5; i++) {
        const a = await attempt(s, address, name, WRONG);
        seen[name].push([a.status, withoutRequestId(a.json)]);
      }
      const right = await attempt(s, address, name, RIGHT);
      seen[name].push([right.status, withoutRequestId(right.json)]);
    }
    expect(seen.alice).toEqual(seen.ghost);
    expect(seen.alice.map(([st]) => st)).toEqual([401, 401, 403, 403, 403, 403]);
    expect(seen.alice[0][1]).toMatchObject({ code: 'AccountOrPasswordIncorrect', message: '账号或密码错误。' });
    expect(seen.alice[2][1]).toMatchObject({ code: 'CaptchaRequired', message: '请先完成滑块验证。' });
    const c = clientFrom(s.url);
    expect(await check(c, 'alice')).toEqual(await check(c, 'ghost'));
    expect(await check(c, 'alice')).toEqual({ locked: false, need_captcha: true });
    expect(await check(c, 'someone-else')).toEqual({ locked: false, need_captcha: false });
  });

  it('with a fresh pass per attempt, the 5th failure locks for an hour, alike for unknown and existing names', async () => {
    const seen: Record<string, number[]> = { bob: [], phantom: [] };
    for (const name of ['bob', 'phantom']) {
      const address = freshAddress();
      const passes = await solveSliders(s.ctx, s.url, name, 7);
      for (let i = 0; i < 6; i++) seen[name].push((await attempt(s, address, name, WRONG, passes[i])).status);
      seen[name].push((await attempt(s, address, name, RIGHT, passes[6])).status);
    }
    expect(seen.bob).toEqual(seen.phantom);
    expect(seen.bob).toEqual([401, 401, 401, 401, 423, 423, 423]);
    const c = clientFrom(s.url);
    expect(await check(c, 'bob')).toEqual(await check(c, 'phantom'));
    expect(await check(c, 'bob')).toEqual({ locked: true, need_captcha: true });
    // Without a pass a locked name answers locked too, not "slider required".
    expect((await attempt(s, freshAddress(), 'bob', RIGHT)).json.code).toBe('AccountLocked');
    s.clock.advance(HOUR - 1000);
    const [pass] = await solveSliders(s.ctx, s.url, 'bob', 1);
    expect((await attempt(s, freshAddress(), 'bob', RIGHT, pass)).status).toBe(423);
    s.clock.advance(1000);
    expect(await check(c, 'bob')).toEqual({ locked: false, need_captcha: false });
    expect((await attempt(s, freshAddress(), 'bob', RIGHT)).status).toBe(200);
  });

  it('spends an argon2 check on unknown names too, so timing does not reveal them', async () => {
    const spy = countEvaluations();
    try {
      const address = freshAddress();
      await attempt(s, address, 'no-such-user-x', WRONG);
      expect(spy.dummy()).toBe(1);
      const realBefore = spy.real();
      await attempt(s, address, 'frank', WRONG);
      expect(spy.dummy()).toBe(1);
      expect(spy.real()).toBe(realBefore + 1);
    } finally {
      spy.restore();
    }
    await s.ctx.lockout.unlock('frank');
  });

  it('counts exactly under 20 parallel attempts: without passes 2 × 401, then with passes 2 more, then locked', async () => {
    for (const name of ['carol', 'nobody-here']) {
      const address = freshAddress();
      const bare = await Promise.all(Array.from({ length: 20 }, () => attempt(s, address, name, WRONG)));
      expect(bare.filter((a) => a.status === 401)).toHaveLength(2);
      expect(bare.filter((a) => a.status === 403 && a.json.code === 'CaptchaRequired')).toHaveLength(18);
      const passes = await solveSliders(s.ctx, s.url, name, 20);
      const withPass = await Promise.all(passes.map((p) => attempt(s, address, name, WRONG, p)));
      expect(withPass.filter((a) => a.status === 401)).toHaveLength(2);
      expect(withPass.filter((a) => a.status === 423)).toHaveLength(18);
    }
  });

  it('shares one counter between case variants of a name (and a pass solved for one variant serves all)', async () => {
    const address = freshAddress();
    for (const v of ['Dave', 'DAVE']) expect((await attempt(s, address, v, WRONG)).status).toBe(401);
    expect((await attempt(s, address, 'dave', WRONG)).status).toBe(403);
    const passes = await solveSliders(s.ctx, s.url, 'DaVe', 4);
    for (const v of ['dAvE', 'daVE']) expect((await attempt(s, address, v, WRONG, passes.shift())).status).toBe(401);
    expect((await attempt(s, address, 'dave', WRONG, passes.shift())).status).toBe(423);
    expect((await attempt(s, address, 'DAVE', RIGHT, passes.shift())).status).toBe(423);
  });

  it('resets the count after a successful sign-in', async () => {
    const address = freshAddress();
    expect((await attempt(s, address, 'erin', WRONG)).status).toBe(401);
    expect((await attempt(s, address, 'erin', RIGHT)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await attempt(s, address, 'erin', WRONG)).status).toBe(401);
    expect((await attempt(s, address, 'erin', RIGHT)).json.code).toBe('CaptchaRequired');
    const [pass] = await solveSliders(s.ctx, s.url, 'erin', 1);
    expect((await attempt(s, address, 'erin', RIGHT, pass)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await attempt(s, address, 'erin', WRONG)).status).toBe(401);
    expect((await attempt(s, address, 'erin', WRONG)).status).toBe(403);
  });

  it('starts counting afresh after a lock expires', async () => {
    const passes = await solveSliders(s.ctx, s.url, 'frank', 5);
    for (const p of passes) await attempt(s, freshAddress(), 'frank', WRONG, p);
    expect(await s.ctx.lockout.isLocked('frank')).toBe(true);
    s.clock.advance(HOUR);
    const address = freshAddress();
    for (let i = 0; i < 2; i++) expect((await attempt(s, address, 'frank', WRONG)).status).toBe(401);
    expect((await attempt(s, address, 'frank', WRONG)).status).toBe(403);
    const more = await solveSliders(s.ctx, s.url, 'frank', 3);
    const withPass = [];
    for (const p of more) withPass.push((await attempt(s, address, 'frank', WRONG, p)).status);
    expect(withPass).toEqual([401, 401, 423]);
    expect(await s.ctx.lockout.isLocked('frank')).toBe(true);
  });

  it('an admin unlock lets the right password in at once, without a pass', async () => {
    const passes = await solveSliders(s.ctx, s.url, 'grace', 6);
    const address = freshAddress();
    for (const p of passes.slice(0, 5)) await attempt(s, address, 'grace', WRONG, p);
    expect((await attempt(s, address, 'grace', RIGHT, passes[5])).status).toBe(423);
    expect(await s.ctx.lockout.unlock('GRACE')).toBe(true);
    expect((await attempt(s, address, 'grace', RIGHT)).status).toBe(200);
  });

  describe("an attacker's counts", () => {
    it('100 parallel wrong attempts without passes evaluate at most 2 passwords', async () => {
      // From 100 addresses (a botnet): the per-address limits do not help, the per-name slots do.
      for (const [name, known] of [
        ['heidi', true],
        ['not-a-user', false],
      ] as const) {
        const spy = countEvaluations();
        try {
          const all = await Promise.all(Array.from({ length: 100 }, () => attempt(s, freshAddress(), name, WRONG)));
          // An unknown name's two dummy checks run their comparison through `verify` too.
          expect({ real: spy.real(), dummy: spy.dummy() }).toEqual(
            known ? { real: 2, dummy: 0 } : { real: 2, dummy: 2 },
          );
          expect(all.filter((a) => a.status === 401)).toHaveLength(2);
          expect(all.filter((a) => a.status === 403 && a.json.code === 'CaptchaRequired')).toHaveLength(98);
        } finally {
          spy.restore();
        }
      }
    });

    it('100 parallel attempts each with its own valid pass evaluate at most 5; the right password then fails', async () => {
      const passes = await solveSliders(s.ctx, s.url, 'ivan', 101);
      const address = freshAddress();
      const spy = countEvaluations();
      try {
        const all = await Promise.all(passes.slice(0, 100).map((p) => attempt(s, freshAddress(), 'ivan', WRONG, p)));
        expect({ real: spy.real(), dummy: spy.dummy() }).toEqual({ real: 5, dummy: 0 });
        expect(all.filter((a) => a.status === 401)).toHaveLength(4);
        expect(all.filter((a) => a.status === 423)).toHaveLength(96);
        const right = await attempt(s, address, 'ivan', RIGHT, passes[100]);
        expect([right.status, right.json.code]).toEqual([423, 'AccountLocked']);
        expect(right.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
        expect(spy.real()).toBe(5);
      } finally {
        spy.restore();
      }
      // Every pass was spent by its attempt, whatever the answer.
      const replay = await attempt(s, address, 'ivan', RIGHT, passes[0]);
      expect([replay.status, replay.json.code]).toEqual([403, 'CaptchaInvalid']);
    });

    it('200 sign-ins over 200 names from one address in a burst: at most 60 evaluated, the rest 429', async () => {
      const address = freshAddress();
      const spy = countEvaluations();
      try {
        const all = await Promise.all(Array.from({ length: 200 }, (_, i) => attempt(s, address, `sweep-${i}`, WRONG)));
        const limited = all.filter((a) => a.status === 429);
        expect(limited.length).toBeGreaterThanOrEqual(140);
        expect(
          limited.every((a) => a.json.code === 'TooManyRequestsMinute' && Number(a.headers.get('retry-after')) > 0),
        ).toBe(true);
        // Unknown names: each evaluation is one dummy check (run through `verify`, so count the dummies).
        expect(spy.dummy()).toBeLessThanOrEqual(60);
      } finally {
        spy.restore();
      }
    });

    it('10 failures from one address over 10 names ask every sign-in from it for the slider', async () => {
      const address = freshAddress();
      const c = clientFrom(s.url, address);
      for (let i = 0; i < 9; i++) expect((await attempt(s, address, `spray-${i}`, WRONG)).status).toBe(401);
      expect(await check(c, 'judy')).toEqual({ locked: false, need_captcha: false });
      expect((await attempt(s, address, 'spray-9', WRONG)).status).toBe(401);
      expect(await check(c, 'judy')).toEqual({ locked: false, need_captcha: true });
      const bare = await attempt(s, address, 'judy', RIGHT);
      expect([bare.status, bare.json.code]).toEqual([403, 'CaptchaRequired']);
      // Another address is not concerned; with a pass this one gets in.
      expect(await check(clientFrom(s.url), 'judy')).toEqual({ locked: false, need_captcha: false });
      const [pass] = await solveSliders(s.ctx, s.url, 'judy', 1);
      expect((await attempt(s, address, 'judy', RIGHT, pass)).status).toBe(200);
      // A locked name still answers locked from that address.
      const passes = await solveSliders(s.ctx, s.url, 'mallory', 5);
      for (const p of passes) await attempt(s, freshAddress(), 'mallory', WRONG, p);
      expect((await attempt(s, address, 'mallory', RIGHT)).json.code).toBe('AccountLocked');
    });
  });
});
