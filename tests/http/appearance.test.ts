import { describe, expect, it } from 'vitest';
import { Client, useTestServer, type Answer } from '../kit/server';
import type { PageConfig } from '../../schemas/page-config';

// The account's colour scheme (issue 39, dark mode): kept on the account, reported by me and by the page's bootstrap
// (what paints the first render), changed only to one of the three values. Runs on PostgreSQL too (npm run test:pg).
const APPEARANCE = '/users/ajax/v1/my/appearance';

/** The page configuration the service put into a signed-in page. */
async function pageConfig(c: Client): Promise<PageConfig> {
  const page = await c.req('GET', '/users/settings/profile', { xhr: false, headers: { accept: 'text/html' } });
  expect(page.status).toBe(200);
  const m = /<script[^>]*id="page-config"[^>]*>([\s\S]*?)<\/script>/.exec(page.text);
  return JSON.parse(m![1]) as PageConfig;
}

/** What an account's colour scheme reads as through each way the web gets it. */
async function schemeSeen(c: Client) {
  return {
    appearance: (await c.req('GET', APPEARANCE)).json.colorScheme,
    me: (await c.req('GET', '/individual/proxy/me')).json.colorScheme,
    page: (await pageConfig(c)).bootstrap?.me?.colorScheme,
  };
}

/** The one error shape, with the code. */
function expectError(a: Answer, status: number, code: string) {
  expect(a.status, a.text).toBe(status);
  expect(Object.keys(a.json).sort()).toEqual(['code', 'message', 'requestId', 'status']);
  expect(a.json).toMatchObject({ status, code });
}

describe('appearance: the colour scheme kept on the account', () => {
  const s = useTestServer({
    seed: {
      users: {
        alice: { password: 'Secret#123', name: 'Alice' },
        bob: { password: 'Secret#456', name: 'Bob' },
        carol: { password: 'Secret#789', name: 'Carol' },
      },
      signIn: ['alice', 'bob', 'carol'],
    },
  });
  const all = { appearance: 'system', me: 'system', page: 'system' };

  it('is `system` until chosen, through the call, me and the page', async () => {
    expect(await schemeSeen(s.clients.carol)).toEqual(all);
  });

  it("dark is kept: the call, me and the page's bootstrap say dark; another account is not touched", async () => {
    const { alice, bob } = s.clients;
    const put = await alice.req('PUT', APPEARANCE, { body: { colorScheme: 'dark' } });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toEqual({ colorScheme: 'dark' });
    expect(await schemeSeen(alice)).toEqual({ appearance: 'dark', me: 'dark', page: 'dark' });
    // A new session of the same account (another browser) paints dark from its first page too.
    const again = new Client(s.url);
    await again.login('alice', 'Secret#123');
    expect(await schemeSeen(again)).toEqual({ appearance: 'dark', me: 'dark', page: 'dark' });
    expect(await schemeSeen(bob)).toEqual(all);

    expect((await alice.req('PUT', APPEARANCE, { body: { colorScheme: 'light' } })).json).toEqual({
      colorScheme: 'light',
    });
    expect((await alice.req('PUT', APPEARANCE, { body: { colorScheme: 'system' } })).status).toBe(200);
    expect(await schemeSeen(alice)).toEqual(all);
  });

  it('refuses any other value with 400 in the error shape, in the caller’s language, and stores nothing', async () => {
    const { bob } = s.clients;
    await bob.req('PUT', APPEARANCE, { body: { colorScheme: 'light' } });
    const bad: unknown[] = [
      { colorScheme: 'blue' },
      { colorScheme: 'DARK' },
      { colorScheme: '' },
      { colorScheme: null },
      { colorScheme: 1 },
      { colorScheme: ['dark'] },
      {},
      null,
      'dark',
    ];
    for (const body of bad) {
      const a = await bob.req('PUT', APPEARANCE, { body });
      expectError(a, 400, 'ProfileColorSchemeInvalid');
    }
    const en = await bob.req('PUT', APPEARANCE, {
      body: { colorScheme: 'blue' },
      headers: { cookie: `${bob.cookieHeader()}; ak_user_locale=en_US` },
    });
    expect(en.json.message).toBe('The appearance must be system (follow the system), light or dark.');
    const zh = await bob.req('PUT', APPEARANCE, {
      body: { colorScheme: 'blue' },
      headers: { cookie: `${bob.cookieHeader()}; ak_user_locale=zh_CN` },
    });
    expect(zh.json.message).toBe('外观只能是 system（跟随系统）、light（浅色）或 dark（深色）。');
    // A right value with a field the contract does not name is refused too (closed body).
    expectError(
      await bob.req('PUT', APPEARANCE, { body: { colorScheme: 'dark', admin: true } }),
      400,
      'InvalidParameter',
    );
    expect(await schemeSeen(bob)).toEqual({ appearance: 'light', me: 'light', page: 'light' });
  });

  it('needs the session and the CSRF token; the database itself keeps out other values', async () => {
    const { carol } = s.clients;
    expectError(
      await carol.req('PUT', APPEARANCE, { body: { colorScheme: 'dark' }, csrf: false }),
      403,
      'CsrfRejected',
    );
    expectError(await new Client(s.url).req('GET', APPEARANCE), 401, 'Unauthorized');
    expectError(await new Client(s.url).req('PUT', APPEARANCE, { body: { colorScheme: 'dark' } }), 401, 'Unauthorized');
    expect(await schemeSeen(carol)).toEqual(all);
    // The column's check, whichever path would write it (SQLite and PostgreSQL alike).
    const id = s.users.carol.id;
    await expect(
      s.ctx.db
        .updateTable('users')
        .set({ color_scheme: 'blue' as 'dark' })
        .where('id', '=', id)
        .execute(),
    ).rejects.toThrow(/check/i);
    expect(await schemeSeen(carol)).toEqual(all);
  });
});
