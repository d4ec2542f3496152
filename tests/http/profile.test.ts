import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, startTestServer, useTestServer, uploadAvatar } from '../kit/server';
import { startSmtpSink, type SinkMail, type SmtpSink } from '../kit/smtp';
import { AVATAR_UPLOAD_WINDOW_MS } from '../../plugins/profile/limits';

/** The activation token inside a received mail. */
function tokenOf(mail: SinkMail): string {
  const m = /\/users\/emails\?token=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!m) throw new Error(`no activation link in mail:\n${mail.raw}`);
  return m[1];
}

const upload = uploadAvatar;

const png = (w = 16, h = 16) =>
  sharp({ create: { width: w, height: h, channels: 3, background: '#36c' } })
    .png()
    .toBuffer();

describe('profile: account, language, avatar, notification e-mail', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());
  const s = useTestServer(() => ({
    env: { SMTP_URL: sink.url },
    seed: {
      users: {
        alice: { password: 'Secret#123', name: 'Alice' },
        bob: { password: 'Secret#456', name: 'Bob' },
        carol: { password: 'Secret#789', name: 'Carol' },
      },
    },
  }));
  let alice: Client;
  let bob: Client;
  const avatarFiles = () => {
    const dir = path.join(s.dataDir, 'avatars');
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };

  // Tests move the clock by hours (token expiry), which ends sessions: sign in afresh each time.
  beforeEach(async () => {
    sink.mails.length = 0;
    ({ alice, bob } = await s.signIn('alice', 'bob'));
  });

  describe('account and language', () => {
    it('GET me keeps the shell contract; PUT me changes name and language and sets the locale cookie', async () => {
      const me = await alice.req('GET', '/individual/proxy/me?with_email_info=true');
      expect(Object.keys(me.json).sort()).toEqual(
        [
          'avatar',
          'colorScheme',
          'email',
          'email_verified',
          'id',
          'language',
          'must_change_password',
          'name',
          'organization_id',
          'username',
        ].sort(),
      );
      const put = await alice.req('PUT', '/individual/proxy/me', { body: { name: 'Alice A.', language: 'en_US' } });
      expect(put.status).toBe(200);
      expect(put.json).toMatchObject({ name: 'Alice A.', language: 'en_US', username: 'alice' });
      expect(put.headers.getSetCookie().join()).toMatch(/ak_user_locale=en_US; Max-Age=31536000; Path=\//);
      expect((await alice.req('PUT', '/individual/proxy/me', { body: { language: 'fr_FR' } })).status).toBe(400);
      expect((await alice.req('PUT', '/individual/proxy/me', { body: { admin: true } })).status).toBe(400);
      expect((await alice.req('PUT', '/individual/proxy/me', { body: { name: '   ' } })).status).toBe(400);
      expect((await new Client(s.url).req('PUT', '/individual/proxy/me', { body: { name: 'x' } })).status).toBe(401);
      // Bob is untouched.
      expect((await bob.req('GET', '/individual/proxy/me')).json).toMatchObject({ name: 'Bob', language: null });
    });

    it('persists the language preference (JSON and legacy form call) with the cookie', async () => {
      const c = new Client(s.url);
      await c.login('carol', 'Secret#789');
      expect((await c.req('GET', '/users/ajax/v1/my/preferences')).json).toEqual({ language: null });
      const put = await c.req('PUT', '/users/ajax/v1/my/preferences', { body: { language: 'en_US' } });
      expect(put.json).toEqual({ language: 'en_US' });
      expect(c.cookies.get('ak_user_locale')).toBe('en_US');
      expect((await c.req('GET', '/users/ajax/v1/my/preferences')).json).toEqual({ language: 'en_US' });
      expect((await c.req('GET', '/individual/proxy/me')).json.language).toBe('en_US');
      // Answers now come in English (the cookie decides).
      const bad = await c.req('PUT', '/users/ajax/v1/my/preferences', { body: { language: 'xx' } });
      expect(bad.status).toBe(400);
      expect(bad.json.message).toMatch(/^Parameter invalid/);

      const legacy = await c.req('PUT', '/api/ajax/teambition/api/users/language', {
        raw: 'language=zh_CN',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(legacy.status).toBe(200);
      expect(c.cookies.get('ak_user_locale')).toBe('zh_CN');
      expect((await c.req('GET', '/users/ajax/v1/my/preferences')).json).toEqual({ language: 'zh_CN' });
      // State changes need the CSRF token; another user's preference is not touched.
      const noCsrf = await c.req('PUT', '/users/ajax/v1/my/preferences', { body: { language: 'en_US' }, csrf: false });
      expect(noCsrf.status).toBe(403);
      expect((await bob.req('GET', '/users/ajax/v1/my/preferences')).json).toEqual({ language: null });
    });

    it('tells the page whether the account has a password', async () => {
      const a = await alice.req('GET', '/users/ajax/v1/my/attributes:bind');
      expect(a.json).toEqual({ has_password: true, directory: null, email: null, email_verified: false });
      await s.seed({ users: { 'sso-only': {} } });
      expect((await new Client(s.url).req('GET', '/users/ajax/v1/my/attributes:bind')).status).toBe(401);
    });

    it('the password change the page makes (login endpoint) ends the other sessions', async () => {
      await s.seed({ users: { dave: { password: 'Secret#000' } } });
      const a = new Client(s.url);
      const other = new Client(s.url);
      await a.login('dave', 'Secret#000');
      await other.login('dave', 'Secret#000');
      const put = await a.req('PUT', '/users/ajax/v1/my/password', {
        body: { new_password: 'Fresh#0001', old_password: 'Secret#000' },
        headers: { user_agent: 'vitest', 'umid-token': 'umid' },
      });
      expect(put.status).toBe(200);
      expect((await other.req('GET', '/individual/proxy/me')).status).toBe(401);
      expect((await a.req('GET', '/individual/proxy/me')).status).toBe(200);
      expect((await new Client(s.url).login('dave', 'Fresh#0001')).status).toBe(200);
    });
  });

  describe('notification e-mail', () => {
    it('none → bound (activation mail) → verified; the token is single-use', async () => {
      const bad = await alice.req('POST', '/users/ajax/v1/my/emails:bind', { body: { email: 'not-an-address' } });
      expect([bad.status, bad.json.code]).toEqual([400, 'ProfileEmailInvalid']);
      expect(
        (await alice.req('POST', '/users/ajax/v1/my/emails:rebind', { body: { email: 'a@x.io' } })).json.code,
      ).toBe('ProfileEmailBindingStatusWrong');

      const bind = await alice.req('POST', '/users/ajax/v1/my/emails:bind', {
        body: { email: 'alice@example.com' },
      });
      expect(bind.status).toBe(200);
      expect(bind.json).toMatchObject({ email: 'alice@example.com', email_verified: false });
      expect(bind.json.resend_available_at - bind.json.server_time).toBe(60_000);
      expect(sink.mails).toHaveLength(1);
      expect(sink.mails[0].to).toEqual(['alice@example.com']);
      const token = tokenOf(sink.mails[0]);
      expect(sink.mails[0].text).toContain(`${s.url}/users/emails?token=`);
      // The token is stored only as a digest.
      const rows = await s.ctx.db.selectFrom('email_tokens').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(token);

      // Bob cannot spend Alice's token; nothing changes for either.
      const stolen = await bob.req('POST', '/individual/proxy/my/email:verify', { body: { token } });
      expect([stolen.status, stolen.json.code]).toEqual([400, 'ProfileEmailTokenMismatch']);
      expect((await bob.req('GET', '/individual/proxy/me')).json.email).toBeNull();
      // Bob cannot unbind Alice's address either.
      const foreign = await bob.req('POST', '/individual/proxy/my/email:unbind', {
        body: { email: 'alice@example.com' },
      });
      expect(foreign.json.code).toBe('ProfileEmailBindingStatusWrong');

      const ok = await alice.req('POST', '/individual/proxy/my/email:verify', { body: { token } });
      expect(ok.status).toBe(200);
      expect(ok.json).toMatchObject({ email: 'alice@example.com', email_verified: true, resend_available_at: null });
      expect((await alice.req('GET', '/individual/proxy/me?with_email_info=true')).json).toMatchObject({
        email: 'alice@example.com',
        email_verified: true,
      });
      const again = await alice.req('POST', '/individual/proxy/my/email:verify', { body: { token } });
      expect([again.status, again.json.code]).toEqual([400, 'ProfileEmailTokenMismatch']);
      const unknown = await alice.req('POST', '/individual/proxy/my/email:verify', { body: { token: 'nope' } });
      expect(unknown.json.code).toBe('ProfileEmailTokenMismatch');

      // Already verified: binding it again is refused; binding another needs rebind.
      s.clock.advance(61_000);
      const dup = await alice.req('POST', '/users/ajax/v1/my/emails:bind', { body: { email: 'ALICE@example.com' } });
      expect([dup.status, dup.json.code]).toEqual([409, 'ProfileEmailAlreadyBound']);
      const other = await alice.req('POST', '/users/ajax/v1/my/emails:bind', { body: { email: 'a2@example.com' } });
      expect([other.status, other.json.code]).toEqual([400, 'ProfileEmailBindingStatusWrong']);
      expect(sink.mails).toHaveLength(1);
    });

    it('an address verified by another user cannot be bound', async () => {
      s.clock.advance(61_000);
      const a = await bob.req('POST', '/users/ajax/v1/my/emails:bind', {
        body: { email: 'Alice@Example.com' },
      });
      expect([a.status, a.json.code]).toEqual([409, 'ProfileEmailAlreadyBound']);
      expect(sink.mails).toHaveLength(0);
      expect((await bob.req('GET', '/individual/proxy/me')).json.email).toBeNull();
    });

    it('resend is throttled to one mail a minute; a resend replaces the earlier link', async () => {
      s.clock.advance(61_000);
      const first = await bob.req('POST', '/users/ajax/v1/my/emails:bind', {
        body: { email: 'bob@example.com' },
      });
      expect(first.status).toBe(200);
      const t1 = tokenOf(sink.mails[0]);
      s.clock.advance(30_000);
      const early = await bob.req('POST', '/users/ajax/v1/my/emails:bind', { body: { email: 'bob@example.com' } });
      expect([early.status, early.json.code]).toEqual([429, 'ProfileEmailTooFrequent']);
      expect(sink.mails).toHaveLength(1);
      s.clock.advance(30_000);
      const resend = await bob.req('POST', '/users/ajax/v1/my/emails:bind', { body: { email: 'bob@example.com' } });
      expect(resend.status).toBe(200);
      expect(sink.mails).toHaveLength(2);
      const t2 = tokenOf(sink.mails[1]);
      expect(t2).not.toBe(t1);
      expect((await bob.req('POST', '/individual/proxy/my/email:verify', { body: { token: t1 } })).json.code).toBe(
        'ProfileEmailTokenMismatch',
      );
      expect((await bob.req('POST', '/individual/proxy/my/email:verify', { body: { token: t2 } })).status).toBe(200);
    });

    it('concurrent resends send exactly one mail', async () => {
      s.clock.advance(61_000);
      await bob.req('POST', '/individual/proxy/my/email:unbind', {
        body: { email: 'bob@example.com' },
      });
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          bob.req('POST', '/users/ajax/v1/my/emails:bind', {
            body: { email: 'bob2@example.com' },
          }),
        ),
      );
      // The unbind told bob@example.com; the binds sent one activation mail.
      sink.mails.splice(0, sink.mails.length, ...sink.mails.filter((m) => m.to.includes('bob2@example.com')));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses.filter((x) => x === 200)).toHaveLength(1);
      // The others: the minute's slot is taken (429), or the password's lockout slots were all in use (423).
      expect(statuses.filter((x) => x === 429 || x === 423)).toHaveLength(7);
      expect(sink.mails).toHaveLength(1);
    });

    it('rebind changes the address (unverified) and earlier links stop working; expired links are refused', async () => {
      s.clock.advance(61_000);
      const c = new Client(s.url);
      await c.login('carol', 'Secret#789');
      await c.req('POST', '/users/ajax/v1/my/emails:bind', {
        body: { email: 'carol@example.com' },
      });
      const old = tokenOf(sink.mails[0]);
      s.clock.advance(61_000);
      const re = await c.req('POST', '/users/ajax/v1/my/emails:rebind', {
        body: { email: 'carol2@example.com' },
      });
      expect(re.status).toBe(200);
      expect(re.json).toMatchObject({ email: 'carol2@example.com', email_verified: false });
      // The activation goes to the new address; the old one is told, without a link.
      const toNew = sink.mails.filter((m) => m.to.includes('carol2@example.com'));
      expect(toNew).toHaveLength(1);
      const notice = sink.mails.find((m) => m.to.includes('carol@example.com') && m !== sink.mails[0]);
      expect(notice?.links).toEqual([]);
      expect(notice?.text).toContain('c***@example.com');
      expect((await c.req('POST', '/individual/proxy/my/email:verify', { body: { token: old } })).json.code).toBe(
        'ProfileEmailTokenMismatch',
      );
      const fresh = tokenOf(toNew[0]);
      s.clock.advance(24 * 3600 * 1000);
      await c.login('carol', 'Secret#789');
      const expired = await c.req('POST', '/individual/proxy/my/email:verify', { body: { token: fresh } });
      expect([expired.status, expired.json.code]).toEqual([400, 'ProfileEmailLinkExpired']);
      expect((await c.req('GET', '/individual/proxy/me')).json.email_verified).toBe(false);

      // The address changed elsewhere (e.g. by the administrator) after the mail went out.
      await c.req('POST', '/users/ajax/v1/my/emails:rebind', {
        body: { email: 'carol3@example.com' },
      });
      const t3 = tokenOf(sink.mails.find((m) => m.to.includes('carol3@example.com'))!);
      await s.ctx.db
        .updateTable('users')
        .set({ email: 'admin-set@example.com' })
        .where('username', '=', 'carol')
        .execute();
      const mismatch = await c.req('POST', '/individual/proxy/my/email:verify', { body: { token: t3 } });
      expect([mismatch.status, mismatch.json.code]).toEqual([400, 'ProfileEmailActivateMismatch']);
    });

    it('unbind must name the bound address', async () => {
      const c = new Client(s.url);
      await c.login('carol', 'Secret#789');
      const wrong = await c.req('POST', '/individual/proxy/my/email:unbind', { body: { email: 'x@example.com' } });
      expect(wrong.json.code).toBe('ProfileEmailBindingStatusWrong');
      const ok = await c.req('POST', '/individual/proxy/my/email:unbind', {
        body: { email: 'admin-set@example.com' },
      });
      expect(ok.json).toMatchObject({ email: null, email_verified: false });
      const none = await c.req('POST', '/individual/proxy/my/email:unbind', {
        body: { email: 'admin-set@example.com' },
      });
      expect(none.json.code).toBe('ProfileEmailBindingStatusWrong');
      // Alice keeps her verified address.
      expect((await alice.req('GET', '/individual/proxy/me')).json).toMatchObject({
        email: 'alice@example.com',
        email_verified: true,
      });
    });

    it('a failed send answers the catalogue error and does not use up the minute', async () => {
      const broken = await startTestServer({
        env: { SMTP_URL: 'smtp://127.0.0.1:1' },
        seed: { users: { erin: { password: 'Secret#111' } }, signIn: ['erin'] },
      });
      try {
        const c = broken.clients.erin;
        const a = await c.req('POST', '/users/ajax/v1/my/emails:bind', {
          body: { email: 'erin@example.com' },
        });
        expect([a.status, a.json.code]).toEqual([502, 'ProfileEmailSendFailed']);
        const b = await c.req('POST', '/users/ajax/v1/my/emails:bind', {
          body: { email: 'erin@example.com' },
        });
        expect(b.json.code).toBe('ProfileEmailSendFailed');
        expect(broken.logs.join('\n')).not.toMatch(/token=/);
      } finally {
        await broken.close();
      }
    });
  });

  describe('avatar', () => {
    // Each test starts a fresh window of the per-user upload limit.
    beforeEach(() => s.clock.advance(AVATAR_UPLOAD_WINDOW_MS));

    it('uploads by content, re-encodes without metadata, serves with nosniff, sets and restores', async () => {
      const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c63' } })
        .jpeg()
        .withMetadata({ exif: { IFD0: { Copyright: 'SecretExifMarker' } } })
        .toBuffer();
      expect(jpeg.includes('SecretExifMarker')).toBe(true);
      // The name says .gif; the content (JPEG) decides.
      const up = await upload(alice, jpeg, 'photo.gif', 'image/gif');
      expect(up.status).toBe(200);
      expect(up.json.url).toMatch(/^\/objects\/avatars\/[0-9a-f]{32}\.jpg$/);
      // Until it is set, only its uploader sees it.
      expect((await fetch(s.url + up.json.url)).status).toBe(404);
      const img = await fetch(s.url + up.json.url, { headers: { cookie: alice.cookieHeader() } });
      expect(img.status).toBe(200);
      expect(img.headers.get('content-type')).toBe('image/jpeg');
      expect(img.headers.get('x-content-type-options')).toBe('nosniff');
      const served = Buffer.from(await img.arrayBuffer());
      expect(served.includes('SecretExifMarker')).toBe(false);
      expect((await sharp(served).metadata()).exif).toBeUndefined();
      expect((await sharp(served).metadata()).width).toBe(40);

      const set = await alice.req('PUT', '/individual/proxy/my/avatar', { body: { avatar: up.json.url } });
      expect(set.status).toBe(200);
      expect(set.json.avatar).toBe(up.json.url);

      const big = await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#999' } })
        .png()
        .toBuffer();
      const up3 = await upload(alice, big, 'big.png');
      const stored = await fetch(s.url + up3.json.url, { headers: { cookie: alice.cookieHeader() } }).then(async (r) =>
        Buffer.from(await r.arrayBuffer()),
      );
      expect((await sharp(stored).metadata()).width).toBe(1024);
      const gif = await sharp({ create: { width: 8, height: 8, channels: 4, background: '#0a0' } })
        .gif()
        .toBuffer();
      const up2 = await upload(alice, gif, 'g.gif', 'image/gif');
      expect(up2.json.url).toMatch(/\.gif$/);
      // One pending upload per user: the GIF replaced the unset PNG.
      expect(avatarFiles()).not.toContain(up3.json.url.split('/').pop());

      expect((await alice.req('PUT', '/individual/proxy/my/avatar', { body: { avatar: up2.json.url } })).status).toBe(
        200,
      );
      // The replaced avatar file is gone.
      expect(avatarFiles()).not.toContain(up.json.url.split('/').pop());
      expect((await fetch(s.url + up.json.url)).status).toBe(404);

      const restore = await alice.req('PUT', '/individual/proxy/my/avatar', { body: { avatar: null } });
      expect(restore.json.avatar).toBeNull();
      expect((await alice.req('GET', '/individual/proxy/me')).json.avatar).toBeNull();
    });

    it('refuses each bad kind by content with nothing left behind', async () => {
      const before = avatarFiles().sort();
      const good = await png();
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>x</script></svg>');
      const cases: Array<[string, Buffer, number, string]> = [
        ['text named .png', Buffer.from('hello, definitely not an image'), 400, 'ProfileAvatarFormat'],
        ['SVG named .png', svg, 400, 'ProfileAvatarFormat'],
        ['truncated PNG', good.subarray(0, Math.floor(good.length / 2)), 400, 'ProfileAvatarUnreadable'],
        [
          'PNG magic then junk',
          Buffer.concat([good.subarray(0, 8), Buffer.alloc(200, 7)]),
          400,
          'ProfileAvatarUnreadable',
        ],
        [
          '1 MB + 1 byte',
          Buffer.concat([good.subarray(0, 8), Buffer.alloc(1024 * 1024 + 1 - 8, 0)]),
          413,
          'ProfileAvatarTooLarge',
        ],
        [
          'WebP',
          await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
            .webp()
            .toBuffer(),
          400,
          'ProfileAvatarFormat',
        ],
      ];
      for (const [label, data, status, code] of cases) {
        const a = await upload(alice, data, 'avatar.png');
        expect([label, a.status, a.json?.code]).toEqual([label, status, code]);
        expect([label, avatarFiles().sort()]).toEqual([label, before]);
      }
      const rows = await s.ctx.db.selectFrom('avatar_uploads').select('name').execute();
      expect(rows.map((r) => r.name).sort()).toEqual(before);
    });

    it('needs a session, the CSRF token and a multipart body', async () => {
      const anon = new Client(s.url);
      expect((await upload(anon, await png(), 'a.png')).status).toBe(401);
      const noCsrf = new Client(s.url);
      noCsrf.cookies = alice.cookies;
      expect((await upload(noCsrf, await png(), 'a.png')).status).toBe(403);
      const json = await alice.req('POST', '/objects/ajax/avatars', { body: { file: 'x' } });
      expect(json.status).toBe(415);
      expect((await fetch(`${s.url}/objects/avatars/${'0'.repeat(32)}.png`)).status).toBe(404);
      expect((await fetch(`${s.url}/objects/avatars/..%2Faccount.db`)).status).toBe(400);
    });

    it('never fetches a URL given as avatar and refuses another user’s upload', async () => {
      let hits = 0;
      const bait = http.createServer((_req, res) => {
        hits++;
        res.end('x');
      });
      await new Promise<void>((resolve) => bait.listen(0, '127.0.0.1', resolve));
      const baitUrl = `http://127.0.0.1:${(bait.address() as { port: number }).port}/a.png`;
      try {
        for (const avatar of [
          baitUrl,
          `//127.0.0.1/x.png`,
          '/objects/avatars/../../etc/passwd',
          'data:image/png;base64,AAAA',
        ]) {
          const a = await alice.req('PUT', '/individual/proxy/my/avatar', { body: { avatar } });
          expect([avatar, a.status, a.json.code]).toEqual([avatar, 400, 'ProfileAvatarNotUploaded']);
        }
        expect(hits).toBe(0);
      } finally {
        await new Promise<void>((resolve) => bait.close(() => resolve()));
      }
      const mine = await upload(alice, await png(), 'mine.png');
      const bobSet = await bob.req('PUT', '/individual/proxy/my/avatar', { body: { avatar: mine.json.url } });
      expect([bobSet.status, bobSet.json.code]).toEqual([404, 'NotFound']);
      expect((await bob.req('GET', '/individual/proxy/me')).json.avatar).toBeNull();
      // Bob restoring his default does not remove Alice's file.
      await bob.req('PUT', '/individual/proxy/my/avatar', { body: { avatar: '' } });
      expect((await fetch(s.url + mine.json.url, { headers: { cookie: alice.cookieHeader() } })).status).toBe(200);
    });
  });
});
