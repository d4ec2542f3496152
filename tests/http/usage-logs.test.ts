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
