import { describe, expect, it, vi } from 'vitest';
import { adminOn, Client, INBOX, startTwin, useTestServer, withoutRequestId, type TestServer } from '../kit/server';
import { clientFrom, freshAddress, solveSliders } from '../kit/captcha';
import { SESSION_COOKIE } from '../../server/auth/sessions';
import { LOCK_AT_FAILURES } from '../../server/auth/lockout';
import { ManualClock } from '../../server/clock';
import { DEVICE_COOKIE, SECURE_DEVICE_COOKIE } from '../../plugins/login/server/device-mark';

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

describe('smart lockout: strangers and the owner’s own browsers count in separate locks', () => {
  const owners = ['olivia', 'oscar', 'otto', 'opal', 'orla', 'omar', 'olga'];
  const s = useTestServer({
    env: { TRUST_PROXY: 'loopback' },
    // The admin CLI reads the system clock: the service's starts at the real time so both see the same locks.
    clock: new ManualClock(Date.now()),
    seed: { users: Object.fromEntries([...owners, 'mallory'].map((u) => [u, { password: RIGHT }])) },
  });

  /** The owner's browser: signed in once with the right password, so it carries the account's device mark. */
  async function markedBrowser(username: string): Promise<Client> {
    const c = clientFrom(s.url);
    const a = await c.login(username, RIGHT);
    expect(a.status, a.text).toBe(200);
    expect(c.cookies.get(DEVICE_COOKIE)).toBeTruthy();
    return c;
  }

  /**
   * The same browser (one cookie jar, so a rotated mark reaches it) sending from another address, as a browser moving
   * between networks does.
   */
  function sameBrowser(browser: Client, address = freshAddress()): Client {
    const c = clientFrom(s.url, address);
    c.cookies = browser.cookies;
    return c;
  }

  const login = (c: Client, username: string, password: string, pass?: string) =>
    c.req('POST', '/users/ajax/login', { body: { username, password, ...(pass ? { captcha_pass: pass } : {}) } });

  /** Five wrong passwords for `username` from browsers without its mark (each with a slider pass): the 5th locks. */
  async function strangerLocks(username: string): Promise<number[]> {
    const passes = await solveSliders(s.ctx, s.url, username, LOCK_AT_FAILURES);
    const statuses: number[] = [];
    for (const p of passes) statuses.push((await login(clientFrom(s.url), username, WRONG, p)).status);
    return statuses;
  }

  it('the device mark: HttpOnly, SameSite=Lax, Path=/, remembered for 180 days, signed, a new one at every sign-in', async () => {
    const c = clientFrom(s.url);
    const first = await c.login('omar', RIGHT);
    const cookie = first.headers.getSetCookie().find((h) => h.startsWith(`${DEVICE_COOKIE}=`));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Path=\//i);
    expect(cookie).toMatch(new RegExp(`; Max-Age=${180 * 24 * 60 * 60}`, 'i'));
    // Secure as configured: this service is on http (the session cookie has no Secure either).
    expect(cookie).not.toMatch(/; Secure/i);
    const v1 = c.cookies.get(DEVICE_COOKIE)!;
    // The account's id is in it, and the service's signature.
    expect(v1.split('.')[0]).toBe(s.users.omar.id);
    expect((await c.login('omar', RIGHT)).status).toBe(200);
    const v2 = c.cookies.get(DEVICE_COOKIE)!;
    expect(v2).not.toBe(v1);
    expect(v2.split('.')[0]).toBe(s.users.omar.id);
  });

  it("a stranger's five failures lock the stranger out, not the owner's marked browser (before: the owner too)", async () => {
    const home = await markedBrowser('olivia');
    expect(await strangerLocks('olivia')).toEqual([401, 401, 401, 401, 423]);
    // Another stranger, even with the right password and a pass: locked.
    const [pass] = await solveSliders(s.ctx, s.url, 'olivia', 1);
    expect((await login(clientFrom(s.url), 'olivia', RIGHT, pass)).status).toBe(423);
    // The owner's browser signs in at once, without a slider; the check tells each browser its own lock.
    expect(await check(sameBrowser(home), 'olivia')).toEqual({ locked: false, need_captcha: false });
    expect(await check(clientFrom(s.url), 'olivia')).toEqual({ locked: true, need_captcha: true });
    const owner = await login(sameBrowser(home), 'olivia', RIGHT);
    expect(owner.status, owner.text).toBe(200);
    // The owner's success clears only the owner's lock: the strangers' stays.
    expect((await login(clientFrom(s.url), 'olivia', RIGHT)).json.code).toBe('AccountLocked');
    // The owner heard of the strangers' lock, once, told that their own browsers still sign in (both languages).
    const c = sameBrowser(home);
    expect((await c.login('olivia', RIGHT)).status).toBe(200);
    const list = async (locale: string) =>
      (
        await c.req('POST', '/users/ajax/v1/notifications/inbox/messages:list', {
          body: { page_size: 100 },
          headers: { 'accept-language': locale },
        })
      ).json.messages.filter((m: { type: string }) => m.type === 'account.locked');
    const [en, ...more] = await list('en-US');
    expect(more).toEqual([]);
    expect(en).toMatchObject({ sensitive: true, title: 'Sign-in from unknown browsers locked' });
    expect(en.body).toContain('Browsers you have signed in with before can still sign in.');
    expect((await list('zh-CN'))[0].title).toBe('陌生浏览器的登录已锁定');
  });

  it("100 parallel wrong passwords from a stranger's browser evaluate at most 5 and lock it; the owner's marked browser then signs in at once", async () => {
    const home = await markedBrowser('oscar');
    // The stranger's browser has a mark of its own: for the stranger's own account, which gives nothing for oscar.
    const stranger = await markedBrowser('mallory');
    const passes = await solveSliders(s.ctx, s.url, 'oscar', 100);
    const verify = vi.spyOn(s.ctx.hasher, 'verify');
    try {
      // From 100 addresses, so the per-address limits do not answer for the per-name lock.
      const all = await Promise.all(passes.map((p) => login(sameBrowser(stranger), 'oscar', WRONG, p)));
      const evaluated = verify.mock.calls.length;
      const statuses = all.map((a) => a.status);
      console.log(
        `smart lockout, 100 parallel wrong passwords from a stranger's browser: ${evaluated} evaluated, ` +
          `${statuses.filter((x) => x === 401).length} × 401, ${statuses.filter((x) => x === 423).length} × 423`,
      );
      expect(evaluated).toBe(LOCK_AT_FAILURES);
      expect(statuses.filter((x) => x === 401)).toHaveLength(LOCK_AT_FAILURES - 1);
      expect(statuses.filter((x) => x === 423)).toHaveLength(100 - LOCK_AT_FAILURES + 1);
      verify.mockClear();
      const owner = await login(sameBrowser(home), 'oscar', RIGHT);
      expect(owner.status, owner.text).toBe(200);
      expect(verify.mock.calls.length).toBe(1);
    } finally {
      verify.mockRestore();
    }
    expect((await login(sameBrowser(stranger), 'oscar', RIGHT)).json.code).toBe('AccountLocked');
  });

  it('a mark counts only as the service signed it, for its own account, and until the browser signs in again', async () => {
    const home = await markedBrowser('otto');
    const old = clientFrom(s.url);
    old.cookies = new Map(home.cookies);
    // The browser signs in again: its mark is a new one, and the copy of the old one no longer counts.
    expect((await home.login('otto', RIGHT)).status).toBe(200);
    const mallory = await markedBrowser('mallory');
    expect(await strangerLocks('otto')).toEqual([401, 401, 401, 401, 423]);
    const [ottoId, nonce, sig] = home.cookies.get(DEVICE_COOKIE)!.split('.');
    const [, malloryNonce, mallorySig] = mallory.cookies.get(DEVICE_COOKIE)!.split('.');
    const forged = (value: string) => {
      const c = clientFrom(s.url);
      c.cookies.set(DEVICE_COOKIE, value);
      return c;
    };
    for (const [what, c] of [
      ['the replaced mark', old],
      ["mallory's mark", sameBrowser(mallory)],
      ["mallory's mark relabelled as otto's", forged(`${ottoId}.${malloryNonce}.${mallorySig}`)],
      ["otto's mark with its signature altered", forged(`${ottoId}.${nonce}.${sig.slice(0, -2)}AA`)],
      ['a mark made up', forged(`${ottoId}.${nonce}x.${sig}`)],
    ] as const) {
      const a = await login(c, 'otto', RIGHT);
      expect([what, a.json?.code]).toEqual([what, 'AccountLocked']);
    }
    expect((await login(sameBrowser(home), 'otto', RIGHT)).status).toBe(200);
  });

  it("the owner's browsers have a lock of their own: slider after 2 failures, locked at 5, strangers' browsers unaffected", async () => {
    const home = await markedBrowser('opal');
    const laptop = await markedBrowser('opal');
    for (let i = 0; i < 2; i++) expect((await login(sameBrowser(home), 'opal', WRONG)).status).toBe(401);
    // The slider rule holds per lock: the owner's browsers need it now, a new browser does not.
    expect(await check(sameBrowser(laptop), 'opal')).toEqual({ locked: false, need_captcha: true });
    expect(await check(clientFrom(s.url), 'opal')).toEqual({ locked: false, need_captcha: false });
    expect((await login(sameBrowser(laptop), 'opal', WRONG)).json.code).toBe('CaptchaRequired');
    const passes = await solveSliders(s.ctx, s.url, 'opal', 3);
    const statuses = [];
    for (const p of passes) statuses.push((await login(sameBrowser(laptop), 'opal', WRONG, p)).status);
    expect(statuses).toEqual([401, 401, 423]);
    expect((await login(sameBrowser(home), 'opal', RIGHT)).json.code).toBe('AccountLocked');
    expect(await check(sameBrowser(home), 'opal')).toEqual({ locked: true, need_captcha: true });
    // A browser the account never signed in with counts in the other lock, which holds nothing.
    const fresh = clientFrom(s.url);
    expect((await login(fresh, 'opal', RIGHT)).status).toBe(200);
    // It is marked from now on, and so counts in the owner's lock, which is locked.
    expect((await login(fresh, 'opal', RIGHT)).json.code).toBe('AccountLocked');
    // The owner heard which lock it was.
    const c = clientFrom(s.url);
    expect((await c.login('opal', RIGHT)).status).toBe(200);
    const messages = (
      await c.req('POST', `${INBOX}:list`, { body: { page_size: 100 }, headers: { 'accept-language': 'en-US' } })
    ).json.messages;
    expect(
      messages.filter((m: { type: string }) => m.type === 'account.locked').map((m: { title: string }) => m.title),
    ).toEqual(['Sign-in from your browsers locked']);
  });

  it('the admin CLI shows both locks of a name and unlocks both or one', async () => {
    const home = await markedBrowser('orla');
    expect(await strangerLocks('orla')).toEqual([401, 401, 401, 401, 423]);
    for (let i = 0; i < 2; i++) expect((await login(sameBrowser(home), 'orla', WRONG)).status).toBe(401);
    const status = await adminOn(s, 'lockout-status', '--username', 'ORLA');
    expect(status.code, status.err).toBe(0);
    const until = new Date(s.clock.now().getTime() + HOUR).toISOString().slice(0, 16).replace('T', ' ');
    expect(status.out.split('\n')).toEqual([
      'ORLA',
      `  browsers without a device mark: locked until ${until} UTC`,
      '  browsers with a device mark:    2 failures, slider needed',
    ]);
    const all = await adminOn(s, 'lockout-status', '--json');
    const orla = JSON.parse(all.out).find((r: { username: string }) => r.username === 'orla');
    expect(orla).toMatchObject({
      unmarked: { locked: true, failures: 5, lockedUntil: s.clock.now().getTime() + HOUR },
      marked: { locked: false, failures: 2, needCaptcha: true, lockedUntil: null },
    });
    expect((await adminOn(s, 'unlock-user', '--username', 'orla', '--lock', 'nobody')).code).toBe(2);
    const one = await adminOn(s, 'unlock-user', '--username', 'orla', '--lock', 'unmarked');
    expect(one.out).toBe('unlocked orla (browsers without a device mark)');
    expect((await adminOn(s, 'lockout-status', '--username', 'orla')).out.split('\n').slice(1)).toEqual([
      '  browsers without a device mark: no failures',
      '  browsers with a device mark:    2 failures, slider needed',
    ]);
    expect((await login(clientFrom(s.url), 'orla', RIGHT)).status).toBe(200);
    expect((await login(sameBrowser(home), 'orla', RIGHT)).json.code).toBe('CaptchaRequired');
    expect((await adminOn(s, 'unlock-user', '--username', 'orla')).out).toBe('unlocked orla');
    expect((await login(sameBrowser(home), 'orla', RIGHT)).status).toBe(200);
    expect((await adminOn(s, 'unlock-user', '--username', 'orla')).out).toBe(
      'orla had no failed sign-ins; nothing to unlock',
    );
  });

  it("two instances on one database: a stranger's wrong passwords over both evaluate at most 5 in all; the owner's mark from one counts on the other", async () => {
    const twin = await startTwin(s, { env: { TRUST_PROXY: 'loopback' } });
    try {
      await twin.listen({ port: 0, host: '127.0.0.1' });
      const twinUrl = `http://127.0.0.1:${(twin.server.address() as { port: number }).port}`;
      const on = (i: number) => new Client(i % 2 ? twinUrl : s.url, { 'x-forwarded-for': freshAddress() });
      // The owner's browser got its mark from the first instance.
      const home = await markedBrowser('olga');
      const passes = await solveSliders(s.ctx, s.url, 'olga', 100);
      const spies = [vi.spyOn(s.ctx.hasher, 'verify'), vi.spyOn(twin.ctx.hasher, 'verify')];
      try {
        // One failure on each instance, then 98 in parallel spread over both: the count is the database's.
        const first = [];
        for (const i of [0, 1]) first.push((await login(on(i), 'olga', WRONG, passes[i])).status);
        expect(first).toEqual([401, 401]);
        const all = await Promise.all(passes.slice(2).map((p, i) => login(on(i), 'olga', WRONG, p)));
        const evaluated = spies.map((v) => v.mock.calls.length);
        const statuses = all.map((a) => a.status);
        console.log(
          `smart lockout, two instances (${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}), 2 + 98 parallel ` +
            `wrong passwords: ${evaluated[0]} + ${evaluated[1]} evaluated, then ` +
            `${statuses.filter((x) => x === 401).length} × 401, ${statuses.filter((x) => x === 423).length} × 423`,
        );
        expect(evaluated[0] + evaluated[1]).toBe(LOCK_AT_FAILURES);
        expect(evaluated.every((n) => n >= 1)).toBe(true);
        expect(statuses.filter((x) => x === 401)).toHaveLength(LOCK_AT_FAILURES - 3);
        expect(statuses.filter((x) => x === 423)).toHaveLength(98 - LOCK_AT_FAILURES + 3);
      } finally {
        for (const v of spies) v.mockRestore();
      }
      // The owner's browser signs in at once on the other instance (it verifies the first one's signature).
      const onTwin = new Client(twinUrl, { 'x-forwarded-for': freshAddress() });
      onTwin.cookies = new Map(home.cookies);
      const owner = await onTwin.login('olga', RIGHT);
      expect(owner.status, owner.text).toBe(200);
      // ...and its new mark, made there, counts on the first.
      expect((await login(sameBrowser(onTwin), 'olga', RIGHT)).status).toBe(200);
      expect((await login(clientFrom(s.url), 'olga', RIGHT)).json.code).toBe('AccountLocked');
    } finally {
      await twin.close();
    }
  });
});

describe('smart lockout behind an https PUBLIC_URL', () => {
  const s = useTestServer({
    env: { PUBLIC_URL: 'https://devops.example.com', TRUST_PROXY: 'loopback' },
    seed: { users: { quinn: { password: RIGHT } } },
  });

  it('the mark is __Host-account_device with Secure, like the session cookie, and keeps the owner in', async () => {
    const home = clientFrom(s.url);
    const a = await home.login('quinn', RIGHT);
    const cookie = a.headers.getSetCookie().find((x) => x.startsWith(`${SECURE_DEVICE_COOKIE}=`));
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).not.toMatch(/domain=/i);
    expect(a.headers.getSetCookie().some((x) => x.startsWith(`${DEVICE_COOKIE}=`))).toBe(false);
    const passes = await solveSliders(s.ctx, s.url, 'quinn', LOCK_AT_FAILURES);
    for (const p of passes) await attempt(s, freshAddress(), 'quinn', WRONG, p);
    // The plain name is not read on https: a mark planted under it counts for nothing.
    const planted = clientFrom(s.url);
    planted.cookies.set(DEVICE_COOKIE, home.cookies.get(SECURE_DEVICE_COOKIE)!);
    expect((await planted.login('quinn', RIGHT)).status).toBe(423);
    expect((await home.login('quinn', RIGHT)).status).toBe(200);
  });
});
