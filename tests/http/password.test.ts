import { describe, expect, it } from 'vitest';
import { Client, startTestServer, useTestServer } from '../kit/server';
import { DEFAULT_HASH_PARAMS } from '../../server/auth/passwords';
import { parseHashOptions } from '../fixtures/server/argon2';

describe('forced and voluntary password change', () => {
  const s = useTestServer({
    seed: {
      users: { newbie: { password: 'Start#123', mustChangePassword: true }, alice: { password: 'Secret#123' } },
    },
  });

  it('the sign-in answer flags a forced change; the change clears the flag', async () => {
    const c = new Client(s.url);
    const login = await c.login('newbie', 'Start#123');
    expect(login.json.must_change_password).toBe(true);
    const put = await c.req('PUT', '/users/ajax/v1/my/password', {
      body: { new_password: 'Brand#New9', old_password: 'Start#123' },
      headers: { user_agent: 'test', 'umid-token': 'u' },
    });
    expect(put.status).toBe(200);
    expect((await c.req('GET', '/individual/proxy/me')).json.must_change_password).toBe(false);
    expect((await new Client(s.url).login('newbie', 'Brand#New9')).json.must_change_password).toBe(false);
  });

  it('applies the password rule', async () => {
    const c = new Client(s.url);
    await c.login('alice', 'Secret#123');
    const cases: Array<[string, string]> = [
      ['Ab#1', 'PasswordTooShort'],
      ['abcdefgh1', 'PasswordComposition'],
      ['abcdefg#', 'PasswordComposition'],
      ['12345678#', 'PasswordComposition'],
      ['abcd1234!', 'PasswordCharacters'],
      ['密码abcd12#', 'PasswordCharacters'],
      ['Secret#123', 'PasswordSameAsOld'],
    ];
    for (const [pw, code] of cases) {
      const a = await c.req('PUT', '/users/ajax/v1/my/password', {
        body: { new_password: pw, old_password: 'Secret#123' },
      });
      expect([pw, a.status, a.json.code]).toEqual([pw, 400, code]);
    }
    const noOld = await c.req('PUT', '/users/ajax/v1/my/password', { body: { new_password: 'Valid#1234' } });
    expect(noOld.json.code).toBe('OldPasswordRequired');
    const wrongOld = await c.req('PUT', '/users/ajax/v1/my/password', {
      body: { new_password: 'Valid#1234', old_password: 'Nope#1234' },
    });
    expect(wrongOld.json.code).toBe('OldPasswordIncorrect');
  });

  it('a change ends the user’s other sessions but keeps the current one', async () => {
    const a = new Client(s.url);
    const b = new Client(s.url);
    await a.login('alice', 'Secret#123');
    await b.login('alice', 'Secret#123');
    const put = await a.req('PUT', '/users/ajax/v1/my/password', {
      body: { new_password: 'Valid#1234', old_password: 'Secret#123' },
    });
    expect(put.status).toBe(200);
    expect((await a.req('GET', '/individual/proxy/me')).status).toBe(200);
    expect((await b.req('GET', '/individual/proxy/me')).status).toBe(401);
  });

  it('stores argon2id with ASVS parameters by default (m ≥ 19 MiB, t = 2, p = 1)', async () => {
    expect(DEFAULT_HASH_PARAMS).toEqual({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    const strong = await startTestServer({
      hashParams: undefined,
      seed: { users: { real: { password: 'Secret#123' } } },
    });
    try {
      const u = strong.users.real;
      const opts = parseHashOptions(u.password_hash!);
      expect(opts).toEqual({ algorithm: 'argon2id', memoryCost: 19456, timeCost: 2, parallelism: 1 });
      expect((await new Client(strong.url).login('real', 'Secret#123')).status).toBe(200);
    } finally {
      await strong.close();
    }
  });
});
