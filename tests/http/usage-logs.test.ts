import { describe, expect, it } from 'vitest';
import { Client, orgSeed, useTestServer } from '../kit/server';

// POST /api/logs: the web tracker's collector.
describe('usage log collection', () => {
  const s = useTestServer({ seed: orgSeed('Acme', ['alice']) });

  const count = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom('usage_logs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('stores a batch from an anonymous page and attributes one from a signed-in user', async () => {
    const anon = await new Client(s.url).req('POST', '/api/logs', { body: [{ action: 'view', page: '/users/login' }] });
    expect(anon.status).toBe(204);
    const c = new Client(s.url);
    await c.login('alice', 'Secret#123');
    const signed = await c.req('POST', '/api/logs', { body: [{ action: 'a' }, { action: 'b' }] });
    expect(signed.status).toBe(204);
    const rows = await s.ctx.db.selectFrom('usage_logs').select(['user_id', 'entry']).execute();
    expect(rows.filter((r) => r.user_id === null).map((r) => JSON.parse(r.entry))).toEqual([
      { action: 'view', page: '/users/login' },
    ]);
    expect(rows.filter((r) => r.user_id !== null)).toHaveLength(2);
  });

  it('refuses posts without X-Requested-With, empty or oversized batches, and non-objects', async () => {
    const before = await count();
    const c = new Client(s.url);
    expect((await c.req('POST', '/api/logs', { body: [{ a: 1 }], xhr: false })).json.code).toBe('XhrRequired');
    expect((await c.req('POST', '/api/logs', { body: [] })).status).toBe(400);
    const many = Array.from({ length: 201 }, (_, i) => ({ i }));
    const tooMany = await c.req('POST', '/api/logs', { body: many });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json).toMatchObject({ status: 400, code: 'InvalidParameter' });
    expect((await c.req('POST', '/api/logs', { body: ['text'] })).status).toBe(400);
    expect(await count()).toBe(before);
  });
});

describe('usage log collection: limits per address and user, retention, no secrets stored', () => {
  const s = useTestServer({ seed: orgSeed('Acme', ['alice', 'bob']) });

  const rows = async () =>
    s.ctx.db
      .selectFrom('usage_logs')
      .select(['user_id', 'entry', 'received_at'])
      .execute()
      .then((r) => r.map((x) => ({ ...x, entry: JSON.parse(x.entry) })));
  const storedBytes = async () =>
    (await s.ctx.db.selectFrom('usage_logs').select('entry').execute()).reduce((n, r) => n + r.entry.length, 0);
  // Each test starts in a fresh minute window.
  const nextMinute = () => s.clock.advance(61_000);

  it('100 anonymous posts of 500 KB: every one refused 413 before anything is stored', async () => {
    nextMinute();
    const before = await storedBytes();
    const body = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ i, pad: 'x'.repeat(5000) })));
    expect(body.length).toBeGreaterThan(500_000);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => new Client(s.url).req('POST', '/api/logs', { raw: body })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(100).fill(413));
    expect(answers[0].json).toMatchObject({ status: 413, code: 'PayloadTooLarge' });
    expect((await storedBytes()) - before).toBe(0);
  });

  it('600 entries a minute per client address, then 429 with Retry-After until the window ends', async () => {
    nextMinute();
    const c = new Client(s.url);
    const batch = Array.from({ length: 200 }, (_, i) => ({ action: 'a', i }));
    for (let i = 0; i < 3; i++) expect((await c.req('POST', '/api/logs', { body: batch })).status).toBe(204);
    s.clock.advance(20_000);
    const over = await c.req('POST', '/api/logs', { body: [{ action: 'one more' }] });
    expect(over.status).toBe(429);
    expect(over.json).toMatchObject({ status: 429, code: 'TooManyRequestsMinute' });
    expect(Number(over.headers.get('retry-after'))).toBe(40);
    // Another client from the same address shares the budget.
    expect((await new Client(s.url).req('POST', '/api/logs', { body: [{ a: 1 }] })).status).toBe(429);
    s.clock.advance(40_000);
    expect((await c.req('POST', '/api/logs', { body: [{ action: 'next minute' }] })).status).toBe(204);
  });

  it('300 entries a minute per signed-in user', async () => {
    nextMinute();
    const alice = new Client(s.url);
    await alice.login('alice', 'Secret#123');
    const batch = Array.from({ length: 150 }, (_, i) => ({ action: 'a', i }));
    expect((await alice.req('POST', '/api/logs', { body: batch })).status).toBe(204);
    expect((await alice.req('POST', '/api/logs', { body: batch })).status).toBe(204);
    const over = await alice.req('POST', '/api/logs', { body: [{ action: 'x' }] });
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBeTruthy();
  });

  it('about 1 MB of entries a minute per client address: a burst of 60 KB posts stops there', async () => {
    nextMinute();
    const before = await storedBytes();
    const post = [{ action: 'big', pad: 'y'.repeat(60_000) }];
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++)
      statuses.push((await new Client(s.url).req('POST', '/api/logs', { body: post })).status);
    const accepted = statuses.filter((x) => x === 204).length;
    expect(accepted).toBe(17);
    expect(statuses.slice(accepted).every((x) => x === 429)).toBe(true);
    expect((await storedBytes()) - before).toBeLessThan(1.1 * 1024 * 1024);
  });

  it('stores page views without the secrets of their URLs', async () => {
    nextMinute();
    const c = new Client(s.url);
    const entry = {
      type: 'event',
      action: 'pageview',
      page: '/users/emails?token=abc',
      url: 'https://devops.example.com/users/emails?token=abc&lang=en#code=zzz',
      route: '/users/emails',
      referrer: 'https://devops.example.com/users/password/reset?ticket=t1&flow=f1&captcha_pass=p1&step=2',
      params: { href: '/login?code=c0de&session=s1&key=k1&secret=s2&password=pw1', next: '/x?pass=p2' },
      message: 'GET /users/ajax/x?access_token=tk1 failed',
      requestBody: '{"old_password":"pw3","name":"Ann"}',
    };
    expect((await c.req('POST', '/api/logs', { body: [entry] })).status).toBe(204);
    const stored = (await rows()).at(-1)!;
    const text = JSON.stringify(stored.entry);
    for (const secret of ['abc', 'zzz', 't1', 'f1', 'p1', 'c0de', 's1', 'k1', 's2', 'pw1', 'p2', 'tk1', 'pw3']) {
      expect(text, secret).not.toContain(`=${secret}`);
      expect(text, secret).not.toContain(`"${secret}`);
    }
    expect(stored.entry).toMatchObject({
      page: '/users/emails',
      url: 'https://devops.example.com/users/emails?lang=en',
      route: '/users/emails',
      referrer: 'https://devops.example.com/users/password/reset?step=2',
      params: { href: '/login', next: '/x' },
      message: 'GET /users/ajax/x failed',
    });
    expect(stored.entry.requestBody).toContain('"name":"Ann"');
  });

  it('keeps 30 days: the service housekeeping deletes older entries', async () => {
    nextMinute();
    const c = new Client(s.url);
    expect((await c.req('POST', '/api/logs', { body: [{ action: 'old' }] })).status).toBe(204);
    s.clock.advance(29 * 24 * 3600_000);
    expect((await c.req('POST', '/api/logs', { body: [{ action: 'recent' }] })).status).toBe(204);
    await s.app.purge();
    expect((await rows()).some((r) => r.entry.action === 'old')).toBe(true);
    s.clock.advance(2 * 24 * 3600_000);
    await s.app.purge();
    const left = await rows();
    expect(left.some((r) => r.entry.action === 'old')).toBe(false);
    expect(left.some((r) => r.entry.action === 'recent')).toBe(true);
    const cutoff = s.clock.now().getTime() - 30 * 24 * 3600_000;
    expect(left.every((r) => Number(r.received_at) >= cutoff)).toBe(true);
  });
});
