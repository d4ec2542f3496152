// Account enumeration (issue 38's table: "with an automated slider, the account check tells existing / missing / no
// e-mail, and shows the masked e-mail (10 a minute per exact address)"). What the SPEC lets us hide is hidden: before
// a slider pass every answer is the same for a missing account as for an existing one. After one, the SPEC's answers
// stay (the recovery wizard confirms the account and names where the code goes; "account does not exist" and "no
// e-mail on the account" are in its error catalogue), in the one error shape, in the same timing class, and an IPv6
// client counts as its /64: rotating its addresses buys no more look-ups. The decision: docs/security.md.
import { describe, expect, it } from 'vitest';
import { useTestServer, withoutRequestId, type Answer, type Client } from '../kit/server';
import { clientFrom, solveSlider } from '../kit/captcha';
import { ACCOUNT_LOOKUPS_PER_MINUTE } from '../../server/http/rate-limit';

const u = (name: string) => `/users/ajax/users/${encodeURIComponent(name)}`;
const EN = { 'accept-language': 'en-US' };

/** `count` addresses of the /64 `prefix`, interface ids far apart (a client rotating its privacy addresses). */
const inNetwork = (prefix: string, count: number) =>
  Array.from(
    { length: count },
    (_, i) => `${prefix}:${(0x1000 + i * 4099).toString(16)}:${i.toString(16)}:cafe:${i + 1}`,
  );

describe('account enumeration', () => {
  const s = useTestServer({
    env: { TRUST_PROXY: 'loopback' },
    seed: {
      users: {
        alice: { password: 'Secret#123', email: 'alice@example.com' },
        bob: { password: 'Secret#123' },
        carol: { password: 'Secret#123', email: 'carol@example.com' },
      },
    },
  });

  /** A slider pass for `name`, solved like a person from an address of its own (not the prober's). */
  const passFor = (name: string) => solveSlider(s.ctx, clientFrom(s.url), name);

  /** The account check with a pass, from `client`. */
  const lookUp = (client: Client, name: string, pass: string) =>
    client.req('GET', `${u(name)}/check`, { headers: { 'x-captcha-pass': pass, ...EN } });

  it('account enumeration: an IPv6 client rotating its addresses within one /64 is one client on the account check', async () => {
    expect(ACCOUNT_LOOKUPS_PER_MINUTE).toBe(10);
    await s.ctx.db.updateTable('users').set({ email_verified: 1 }).where('email', 'is not', null).execute();
    // The prober's list: existing accounts, missing ones and one without an e-mail, a fresh address for each.
    const names = [
      'alice',
      'ghost-1',
      'bob',
      'ghost-2',
      'carol',
      'ghost-3',
      'ghost-4',
      'ghost-5',
      'ghost-6',
      'ghost-7',
    ];
    const more = ['ghost-8', 'ghost-9', 'alice'];
    const passes = new Map<string, string>();
    for (const n of new Set([...names, ...more])) passes.set(n, await passFor(n));
    const addresses = inNetwork('2001:db8:e1:7', names.length + more.length);
    const answers: Answer[] = [];
    for (const [i, n] of [...names, ...more].entries())
      answers.push(await lookUp(clientFrom(s.url, addresses[i]), n, passes.get(n)!));
    // The first ten are answered as the SPEC says; every address after them is told to wait, as the network is.
    expect(answers.slice(0, 10).map((a) => a.status)).toEqual([200, 404, 400, 404, 200, 404, 404, 404, 404, 404]);
    // Before: each address had ten of its own, and these were answered too.
    for (const a of answers.slice(10)) {
      expect([a.status, a.json.code]).toEqual([429, 'TooManyRequestsMinute']);
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Opening a recovery tells the same and draws on the same budget.
    const retrieve = await clientFrom(s.url, '2001:db8:e1:7::42').req('POST', `${u('carol')}/password:retrieve`, {
      body: { captcha_pass: await passFor('carol') },
    });
    expect([retrieve.status, retrieve.json.code]).toEqual([429, 'TooManyRequestsMinute']);
    // Another /64 has its own budget; the network's comes back after the minute.
    expect((await lookUp(clientFrom(s.url, '2001:db8:e1:8::1'), 'alice', passes.get('alice')!)).status).toBe(200);
    s.clock.advance(61_000);
    const later = await lookUp(clientFrom(s.url, '2001:db8:e1:7::9'), 'ghost-8', await passFor('ghost-8'));
    expect([later.status, later.json.code]).toEqual([404, 'AccountNotExist']);
  });

  it('account enumeration: without a slider pass a missing account answers exactly as an existing one', async () => {
    const answersFor = async (name: string) => {
      const c = clientFrom(s.url, undefined, EN);
      const out: unknown[] = [];
      const strip = (a: Answer) => [a.status, a.json && withoutRequestId(a.json)];
      out.push(strip(await c.req('GET', `${u(name)}/check`)));
      // A puzzle is drawn for any name; its answer earns a pass for any name.
      const puzzle = await c.req('POST', `${u(name)}/sliderCaptcha`, { body: {} });
      out.push([puzzle.status, Object.keys(puzzle.json).sort(), puzzle.json.width, puzzle.json.height]);
      const pass = await solveSlider(s.ctx, c, name);
      out.push(typeof pass === 'string' && pass.length > 20);
      // Wrong passwords: the same refusal, the same slider demand after two, the same lock after five.
      for (let i = 0; i < 2; i++)
        out.push(
          strip(await c.req('POST', '/users/ajax/login', { body: { username: name, password: `Wrong#00${i}` } })),
        );
      out.push(strip(await c.req('GET', `${u(name)}/check`)));
      out.push(strip(await c.req('POST', '/users/ajax/login', { body: { username: name, password: 'Wrong#002' } })));
      for (let i = 3; i < 6; i++) {
        const pass = await solveSlider(s.ctx, c, name);
        out.push(
          strip(
            await c.req('POST', '/users/ajax/login', {
              body: { username: name, password: `Wrong#00${i}`, captcha_pass: pass },
            }),
          ),
        );
      }
      out.push(strip(await c.req('GET', `${u(name)}/check`)));
      return out;
    };
    const existing = await answersFor('carol');
    const missing = await answersFor('ghost-carol');
    expect(missing).toEqual(existing);
    // And what they were: the refusals a stranger gets.
    expect(existing.at(-1)).toEqual([200, { locked: true, need_captcha: true }]);
    await s.ctx.lockout.unlock('carol');
  });

  it('account enumeration: with a pass the SPEC’s answers stay, in the one error shape and one timing class', async () => {
    await s.ctx.db.updateTable('users').set({ email_verified: 1 }).where('email', 'is not', null).execute();
    const passes = { alice: await passFor('alice'), ghost: await passFor('ghost-zz'), bob: await passFor('bob') };
    // From an address each, so the per-network budget is not what is measured.
    const check = async (name: 'alice' | 'ghost' | 'bob') => {
      const started = performance.now();
      const a = await lookUp(clientFrom(s.url), name === 'ghost' ? 'ghost-zz' : name, passes[name]);
      return { a, ms: performance.now() - started };
    };
    const found = (await check('alice')).a;
    expect([found.status, found.json]).toEqual([
      200,
      { locked: false, need_captcha: false, exists: true, email: 'a***@example.com' },
    ]);
    const errorShape = (a: Answer, status: number, code: string, message: string) => {
      expect(a.status).toBe(status);
      expect(Object.keys(a.json).sort()).toEqual(['code', 'message', 'requestId', 'status']);
      expect(a.json).toMatchObject({ status, code, message });
    };
    errorShape((await check('ghost')).a, 404, 'AccountNotExist', 'The account does not exist.');
    errorShape(
      (await check('bob')).a,
      400,
      'AccountNoEmail',
      'This account has no email address. Please contact the administrator.',
    );
    // The same work either way (the same reads, no password hash): interleaved, the medians stay together.
    const times = { alice: [] as number[], ghost: [] as number[] };
    for (let i = 0; i < 15; i++) {
      for (const name of i % 2 ? (['alice', 'ghost'] as const) : (['ghost', 'alice'] as const)) {
        const { a, ms } = await check(name);
        expect(a.status).toBe(name === 'alice' ? 200 : 404);
        times[name].push(ms);
      }
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    const [existing, missing] = [median(times.alice), median(times.ghost)];
    expect(Math.abs(existing - missing), `medians ${existing.toFixed(1)} / ${missing.toFixed(1)} ms`).toBeLessThan(
      Math.max(15, 0.5 * Math.max(existing, missing)),
    );
  });
});
