import { beforeAll, describe, expect, it } from 'vitest';
import { Client, useTestServer, type Answer } from '../kit/server';

function expectShape(a: Answer, status: number, code: string) {
  expect(a.status).toBe(status);
  expect(Object.keys(a.json).sort()).toEqual(['code', 'message', 'requestId', 'status']);
  expect(a.json).toMatchObject({ status, code });
  expect(typeof a.json.message).toBe('string');
  expect(a.json.message.length).toBeGreaterThan(0);
  expect(a.json.requestId).toBe(a.headers.get('x-request-id'));
}

describe('error shape on malformed input', () => {
  const s = useTestServer({ seed: { users: { alice: { password: 'Secret#123' } }, signIn: ['alice'] } });
  let c: Client;
  beforeAll(() => {
    c = s.clients.alice;
  });

  it('malformed JSON → 400', async () => {
    expectShape(await c.req('POST', '/users/ajax/login', { raw: '{"username": "a",' }), 400, 'InvalidJson');
    expectShape(await c.req('PUT', '/users/ajax/v1/my/password', { raw: 'not json' }), 400, 'InvalidJson');
  });

  it('unknown fields → 400 (no silent stripping)', async () => {
    const a = await c.req('POST', '/users/ajax/login', { body: { username: 'a', password: 'b', admin: true } });
    expectShape(a, 400, 'InvalidParameter');
  });

  it('wrong types and missing fields → 400', async () => {
    expectShape(
      await c.req('POST', '/users/ajax/login', { body: { username: 5, password: 'b' } }),
      400,
      'InvalidParameter',
    );
    expectShape(await c.req('POST', '/users/ajax/login', { body: { username: 'a' } }), 400, 'InvalidParameter');
    expectShape(await c.req('POST', '/users/ajax/login', { raw: '[]' }), 400, 'InvalidParameter');
    expectShape(await c.req('POST', '/users/ajax/login', { raw: 'null' }), 400, 'InvalidParameter');
  });

  it('__proto__ and constructor.prototype keys → 400', async () => {
    expectShape(
      await c.req('POST', '/users/ajax/login', { raw: '{"username":"a","password":"b","__proto__":{"isAdmin":true}}' }),
      400,
      'InvalidJson',
    );
    expectShape(
      await c.req('POST', '/users/ajax/login', {
        raw: '{"username":"a","password":"b","constructor":{"prototype":{"x":1}}}',
      }),
      400,
      'InvalidJson',
    );
  });

  it('oversized body → 413', async () => {
    const big = JSON.stringify({ username: 'a', password: 'x'.repeat(200 * 1024) });
    expectShape(await c.req('POST', '/users/ajax/login', { raw: big }), 413, 'PayloadTooLarge');
  });

  it('unsupported content type → 415', async () => {
    expectShape(
      await c.req('PUT', '/users/ajax/v1/my/password', { raw: 'a', headers: { 'content-type': 'application/xml' } }),
      415,
      'UnsupportedMediaType',
    );
  });

  it('unknown API path → 404 JSON, not the web app', async () => {
    expectShape(await c.req('GET', '/users/ajax/v1/nothing-here'), 404, 'NotFound');
    expectShape(await c.req('GET', '/uiless/api/organizations/does-not-exist'), 403, 'NoOrganizationPermission');
  });

  it('answers in the request locale: cookie first, then Accept-Language', async () => {
    const en = await new Client(s.url).req('GET', '/individual/proxy/me', {
      headers: { 'accept-language': 'en-US,en;q=0.9' },
    });
    expect(en.json.message).toBe('Please sign in first.');
    const zh = await new Client(s.url).req('GET', '/individual/proxy/me', { headers: { 'accept-language': 'zh-TW' } });
    expect(zh.json.message).toBe('请先登录。');
    const cookie = await new Client(s.url).req('GET', '/individual/proxy/me', {
      headers: { 'accept-language': 'zh-CN', cookie: 'ak_user_locale=en_US' },
    });
    expect(cookie.json.message).toBe('Please sign in first.');
  });

  it('never answers 500 to garbage', async () => {
    const bodies = [
      '',
      '{',
      '"str"',
      '1',
      '{"username":{"$gt":""},"password":"x"}',
      '\u0000',
      '{"username":"a","password":"b","captcha":[1]}',
    ];
    for (const raw of bodies) {
      const a = await c.req('POST', '/users/ajax/login', { raw });
      expect(a.status).toBeGreaterThanOrEqual(400);
      expect(a.status).toBeLessThan(500);
      expect(a.json.requestId).toBeTruthy();
    }
  });
});
