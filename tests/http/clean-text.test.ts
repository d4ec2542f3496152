import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOn, INBOX, orgSeed, useTestServer, type Answer, type Client } from '../kit/server';

// Names and texts other people read (display names, token and SSH key names, descriptions, organisation notices):
// NFC-normalised, and refused with a message naming the field when they hold control characters, text-direction
// controls or nothing visible.
const DAY = 24 * 60 * 60 * 1000;
const TOKENS = '/users/ajax/v1/my/tokens';
const LEGACY_TOKENS = '/users/ajax/v1/tokens';
const KEYS = '/uiless/proxy/codeup/api/v3/user/keys';

/** Hostile texts by the code that refuses them. */
const HOSTILE: Array<[string, string]> = [
  ['TextControlCharacters', 'build\r\nX-Injected: 1'],
  ['TextControlCharacters', 'ding\u0007'],
  ['TextControlCharacters', 'tab\there'],
  ['TextControlCharacters', 'c1\u0085next line'],
  ['TextControlCharacters', 'esc\u001b[31m'],
  ['TextControlCharacters', 'line\u2028separator'],
  ['TextDirectionControls', 'invoice\u202Etxt.exe'],
  ['TextDirectionControls', '\u2066isolated\u2069'],
  ['TextDirectionControls', 'mark\u200F'],
  ['TextDirectionControls', 'arabic\u061Cmark'],
  ['TextInvisibleOnly', '\u200B'],
  ['TextInvisibleOnly', '\u200B\u200C\u200D\u2060\uFEFF\u200B'],
  ['TextInvisibleOnly', '\u3164'],
];
/** "Café" with a combining accent; stored as its NFC form (one precomposed é). */
const DECOMPOSED = 'Cafe\u0301';
const COMPOSED = 'Caf\u00e9';

describe('clean names: NFC, and no control, direction or invisible-only text', () => {
  const s = useTestServer({ seed: orgSeed('Acme', ['alice', 'bob'], { signIn: true }) });
  let alice: Client;
  let keyDir: string;
  const keys: string[] = [];

  beforeAll(() => {
    alice = s.clients.alice;
    keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'clean-text-keys-'));
    for (let i = 0; i < 3; i++) {
      const file = path.join(keyDir, `k${i}`);
      execFileSync('ssh-keygen', ['-q', '-N', '', '-t', 'ed25519', '-C', `k${i}@test`, '-f', file]);
      keys.push(fs.readFileSync(`${file}.pub`, 'utf8'));
    }
  });
  afterAll(() => fs.rmSync(keyDir, { recursive: true, force: true }));

  const inDays = (n: number) => new Date(s.clock.now().getTime() + n * DAY).toISOString();
  const tokenBody = (more: Record<string, unknown>) => ({
    name: 'ci',
    description: 'for tests',
    expires_at: inDays(30),
    token_scopes: ['base:user:read'],
    ...more,
  });

  /** The answer is the refusal `code`, in the shared error shape, naming `field` in English and in Chinese. */
  async function expectRefused(
    send: (headers: Record<string, string>) => Promise<Answer>,
    code: string,
    field: { en: string; zh: string },
    what: string,
  ) {
    const en = await send({ cookie: `${alice.cookieHeader()}; ak_user_locale=en_US` });
    expect(en.status, `${what}: ${en.text}`).toBe(400);
    expect(Object.keys(en.json).sort(), what).toEqual(['code', 'message', 'requestId', 'status']);
    expect(en.json.code, what).toBe(code);
    expect(en.json.message, what).toContain(field.en);
    const zh = await send({ cookie: `${alice.cookieHeader()}; ak_user_locale=zh_CN` });
    expect(zh.json.code, what).toBe(code);
    expect(zh.json.message, what).toContain(field.zh);
  }

  it('refuses hostile display names by name, in both languages; stores the NFC form', async () => {
    for (const [code, name] of HOSTILE)
      await expectRefused(
        (headers) => alice.req('PUT', '/individual/proxy/me', { body: { name }, headers }),
        code,
        { en: 'display name', zh: '显示名称' },
        JSON.stringify(name),
      );
    expect((await alice.req('GET', '/individual/proxy/me')).json.name).toBe('alice');
    const put = await alice.req('PUT', '/individual/proxy/me', { body: { name: DECOMPOSED } });
    expect(put.status, put.text).toBe(200);
    expect((await alice.req('GET', '/individual/proxy/me')).json.name).toBe(COMPOSED);
    // Joiners inside a name (an emoji sequence) are fine: only names made of nothing else are refused.
    const family = 'Alice \u{1F469}\u200D\u{1F467}';
    expect((await alice.req('PUT', '/individual/proxy/me', { body: { name: family } })).status).toBe(200);
  });

  it('refuses hostile token names and descriptions on create and edit, on both paths; stores NFC', async () => {
    for (const base of [TOKENS, LEGACY_TOKENS])
      for (const [i, [code, text]] of HOSTILE.entries()) {
        // Refused creations count in the 60-a-minute creation budget too: a minute passes every few.
        if (i % 5 === 0) s.clock.advance(61_000);
        const what = `${base} ${JSON.stringify(text)}`;
        await expectRefused(
          (headers) => alice.req('POST', base, { body: tokenBody({ name: text }), headers }),
          code,
          { en: 'token name', zh: '令牌名称' },
          what,
        );
        await expectRefused(
          (headers) => alice.req('POST', base, { body: tokenBody({ description: text }), headers }),
          code,
          { en: 'token description', zh: '令牌描述' },
          what,
        );
      }
    s.clock.advance(61_000);
    const made = await alice.req('POST', TOKENS, { body: tokenBody({ name: DECOMPOSED, description: DECOMPOSED }) });
    expect(made.status, made.text).toBe(200);
    expect(made.json).toMatchObject({ name: COMPOSED, description: COMPOSED });
    const id = made.json.token_id;
    for (const [code, text] of HOSTILE) {
      const edit = (body: Record<string, unknown>) => (headers: Record<string, string>) =>
        alice.req('PUT', `${TOKENS}/${id}`, {
          body: { name: 'ci', token_scopes: ['base:user:read'], expires_at: inDays(30), ...body },
          headers,
        });
      await expectRefused(edit({ name: text }), code, { en: 'token name', zh: '令牌名称' }, JSON.stringify(text));
      await expectRefused(
        edit({ description: text }),
        code,
        { en: 'token description', zh: '令牌描述' },
        JSON.stringify(text),
      );
    }
    const search = await alice.req('POST', `${TOKENS}:search`, { body: {} });
    expect(search.json.access_tokens.map((t: { name: string }) => t.name)).toEqual([COMPOSED]);
  });

  it('refuses hostile SSH key names on add and edit; stores NFC', async () => {
    for (const [code, name] of HOSTILE)
      await expectRefused(
        (headers) => alice.req('POST', KEYS, { body: { name, key: keys[0], scope: 'read_only' }, headers }),
        code,
        { en: 'SSH key name', zh: 'SSH 公钥名称' },
        JSON.stringify(name),
      );
    const added = await alice.req('POST', KEYS, { body: { name: DECOMPOSED, key: keys[1], scope: 'read_only' } });
    expect(added.status, added.text).toBe(201);
    expect(added.json.name).toBe(COMPOSED);
    for (const [code, name] of HOSTILE)
      await expectRefused(
        (headers) => alice.req('PUT', `${KEYS}/${added.json.id}`, { body: { name }, headers }),
        code,
        { en: 'SSH key name', zh: 'SSH 公钥名称' },
        JSON.stringify(name),
      );
    const list = await alice.req('GET', KEYS);
    expect(list.json.map((k: { name: string }) => k.name)).toEqual([COMPOSED]);
  });

  it('send-notice refuses hostile titles and bodies by option; a body keeps its line breaks; NFC', async () => {
    const notice = (title: string, body: string) =>
      adminOn(s, 'send-notice', '--org', 'Acme', '--title', title, '--body', body);
    for (const [, text] of HOSTILE) {
      const t = await notice(text, 'Body');
      expect([text, t.code]).toEqual([text, 1]);
      expect(t.err).toContain('--title');
    }
    for (const [code, text] of HOSTILE) {
      // Line breaks are the one control a notice's body keeps (the inbox shows them); every other refusal stands.
      if (/\r\n/.test(text)) continue;
      const b = await notice('Title', text);
      expect([code, text, b.code]).toEqual([code, text, 1]);
      expect(b.err).toContain('--body');
    }
    const sent = await notice(DECOMPOSED, `Line one\r\nLine two ${DECOMPOSED}`);
    expect(sent.code, sent.err).toBe(0);
    const list = await alice.req('POST', `${INBOX}:list`, { body: { page_size: 100 } });
    const message = list.json.messages.find((m: { type: string }) => m.type === 'org.notice');
    expect(message).toMatchObject({ title: COMPOSED, body: `Line one\nLine two ${COMPOSED}` });
  });

  it('create-user refuses a hostile --name, and stores the NFC form', async () => {
    const bad = await adminOn(
      s,
      'create-user',
      '--username',
      'mallory',
      '--password',
      'Secret#123',
      '--name',
      'a\u202Eb',
    );
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('--name');
    const ok = await adminOn(s, 'create-user', '--username', 'carol', '--password', 'Secret#123', '--name', DECOMPOSED);
    expect(ok.code, ok.err).toBe(0);
    const row = await s.ctx.db.selectFrom('users').select('name').where('username', '=', 'carol').executeTakeFirst();
    expect(row?.name).toBe(COMPOSED);
  });
});
