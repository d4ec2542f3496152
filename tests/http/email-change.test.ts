// E-mail changes need the account's proof (issue 38, item 3; since issue 40 the session's recent proof, the
// re-authentication of reauth.test.ts): a stolen session cannot move the account's e-mail (and with it password
// recovery) elsewhere; the old address is told; the inbox keeps the change; no address oracle.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, INBOX, useTestServer } from '../kit/server';
import { startSmtpSink, type SmtpSink } from '../kit/smtp';
import { SESSION_COOKIE } from '../../server/auth/sessions';
import { DEFAULT_REAUTH_WINDOW_MINUTES } from '../../server/config';
import { REAUTH_PATHS } from '../../schemas/reauth';

const REBIND = '/users/ajax/v1/my/emails:rebind';
const BIND = '/users/ajax/v1/my/emails:bind';
const UNBIND = '/individual/proxy/my/email:unbind';
const CODE = '/users/ajax/v1/my/emails:code';
/** Past the re-authentication window of a sign-in (or of the last proof). */
const STALE_MS = DEFAULT_REAUTH_WINDOW_MINUTES * 60_000 + 1000;

describe('e-mail change', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());
  const s = useTestServer(() => ({
    env: { SMTP_URL: sink.url },
    seed: {
      users: {
        alice: { password: 'Secret#123', email: 'alice@example.com' },
        bob: { password: 'Secret#456', email: 'bob@example.com' },
        carol: { password: 'Secret#789', email: 'carol@example.com' },
        // A third-party account: no password, an address from its provider.
        tp: { email: 'tp@example.com' },
      },
    },
  }));
  beforeEach(async () => {
    sink.mails.length = 0;
    // A fresh hour for the mail throttles and the activation-mail limit per address (every call here counts).
    s.clock.advance(3_600_000);
    await s.ctx.db.updateTable('users').set({ email_verified: 1 }).where('email', 'is not', null).execute();
  });
  const mailsTo = (to: string) => sink.mails.filter((m) => m.to.includes(to));

  it('a left-open session cannot move the e-mail without proving again; the old address and the inbox keep the change', async () => {
    const { alice } = await s.signIn('alice');
    s.clock.advance(STALE_MS);
    // Before issue 38: emails:rebind needed nothing but the session. Now a recent proof.
    const bare = await alice.req('POST', REBIND, { body: { email: 'thief@evil.example' } });
    expect([bare.status, bare.json.code]).toEqual([403, 'ReauthRequired']);
    // The password no longer rides along in the body: the proof is re-authentication's.
    const withPassword = await alice.req('POST', REBIND, {
      body: { email: 'thief@evil.example', password: 'Secret#123' },
    });
    expect(withPassword.status).toBe(403);
    const wrong = await alice.req('POST', REAUTH_PATHS.my, { body: { password: 'Guess#0001' } });
    expect([wrong.status, wrong.json.code]).toEqual([400, 'ReauthPasswordIncorrect']);
    // Unbinding (then binding afresh) is no way around it.
    const unbind = await alice.req('POST', UNBIND, { body: { email: 'alice@example.com' } });
    expect([unbind.status, unbind.json.code]).toEqual([403, 'ReauthRequired']);
    expect(sink.mails).toHaveLength(0);
    expect((await alice.req('GET', '/individual/proxy/me')).json).toMatchObject({
      email: 'alice@example.com',
      email_verified: true,
    });

    // Proved, the change goes through; the old address is told, the new one masked, with no link.
    const proof = await alice.req('POST', REAUTH_PATHS.my, { body: { password: 'Secret#123' } });
    expect(proof.status, proof.text).toBe(200);
    alice.csrf = proof.json.csrf_token;
    const ok = await alice.req('POST', REBIND, { body: { email: 'new.alice@example.org' } });
    expect(ok.status, ok.text).toBe(200);
    const [notice] = await Promise.all([sink.waitFor('alice@example.com'), sink.waitFor('new.alice@example.org')]);
    expect(notice.text).toContain('n***@example.org');
    expect(notice.text).not.toContain('new.alice@example.org');
    expect(notice.links).toEqual([]);
    expect(notice.text).not.toMatch(/token=|https?:\/\//);
    expect(mailsTo('new.alice@example.org')[0].links.length).toBe(1);

    // The same session cannot make the owner's "e-mail changed" message go for 7 days, read or not.
    const list = await alice.req('POST', `${INBOX}:list`, { body: { page_size: 100 } });
    const changed = (list.json.messages as { id: string; type: string }[]).find((m) => m.type === 'email.changed')!;
    expect(changed).toBeDefined();
    expect((await alice.req('POST', `${INBOX}/${changed.id}/read`)).status).toBe(200);
    const del = await alice.req('DELETE', `${INBOX}/${changed.id}`);
    expect([del.status, del.json.code]).toEqual([409, 'InboxMessageKept']);
    const batch = await alice.req('POST', `${INBOX}:batchDelete`, { body: { ids: [changed.id] } });
    expect(batch.json).toEqual({ count: 0, kept: 1 });
    await alice.req('POST', `${INBOX}:deleteRead`, { body: {} });
    const still = await s.ctx.db.selectFrom('inbox_messages').select('id').where('id', '=', changed.id).execute();
    expect(still).toHaveLength(1);
    s.clock.advance(7 * 24 * 3600 * 1000);
    const { alice: later } = await s.signIn('alice');
    expect((await later.req('DELETE', `${INBOX}/${changed.id}`)).status).toBe(200);
  });

  it('wrong proofs take sign-in lockout slots: 20 in parallel, 5 evaluated, then the account is locked', async () => {
    const { carol } = await s.signIn('carol');
    s.clock.advance(STALE_MS);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        carol.req('POST', REAUTH_PATHS.my, { body: { password: `Wrong#${1000 + i}` } }),
      ),
    );
    const codes = answers.map((a) => a.json.code);
    expect(codes.filter((c) => c === 'ReauthPasswordIncorrect')).toHaveLength(4);
    expect(codes.filter((c) => c === 'ReauthAccountLocked')).toHaveLength(16);
    // Locked: the right password is refused unevaluated, the change with it, and sign-in is locked too.
    const right = await carol.req('POST', REAUTH_PATHS.my, { body: { password: 'Secret#789' } });
    expect([right.status, right.json.code]).toEqual([423, 'ReauthAccountLocked']);
    const change = await carol.req('POST', REBIND, { body: { email: 'c@example.org' } });
    expect([change.status, change.json.code]).toEqual([403, 'ReauthRequired']);
    expect((await carol.login('carol', 'Secret#789')).status).toBe(423);
    expect(mailsTo('carol@example.com').map((m) => m.subject)).not.toContain('The email of your account was changed');
    await s.ctx.lockout.unlock('carol');
  });

  it('an account without a password proves the change with a code mailed to its current address', async () => {
    const tp = new Client(s.url);
    // It signs in through its provider; the test makes its session directly.
    const session = await s.ctx.sessions.create(s.users.tp.id, { method: 'dingtalk' });
    tp.cookies.set(SESSION_COOKIE, session.id);
    tp.csrf = session.csrfToken;
    const me = await tp.req('GET', '/individual/proxy/me');
    expect(me.status, me.text).toBe(200);
    const bare = await tp.req('POST', REBIND, { body: { email: 'tp2@example.org' } });
    expect([bare.status, bare.json.code]).toEqual([400, 'ProfileEmailCodeRequired']);
    const sent = await tp.req('POST', CODE);
    expect(sent.status, sent.text).toBe(200);
    expect(sent.json.sent_to).toBe('t***@example.com');
    const mail = await sink.waitFor('tp@example.com');
    const code = /\b(\d{6})\b/.exec(mail.text)![1];
    expect(mail.links).toEqual([]);
    expect((await tp.req('POST', CODE)).json.code).toBe('ProfileEmailTooFrequent');
    const wrongCode = code === '000000' ? '111111' : '000000';
    const wrong = await tp.req('POST', REBIND, { body: { email: 'tp2@example.org', code: wrongCode } });
    expect([wrong.status, wrong.json.code]).toEqual([400, 'ProfileEmailCodeIncorrect']);
    const ok = await tp.req('POST', REBIND, { body: { email: 'tp2@example.org', code } });
    expect(ok.status, ok.text).toBe(200);
    await sink.waitFor('tp2@example.org');
    const notice = mailsTo('tp@example.com').find((m) => m.text.includes('t***@example.org'));
    expect(notice?.links).toEqual([]);
    // A code proves one change.
    s.clock.advance(61_000);
    const again = await tp.req('POST', REBIND, { body: { email: 'tp3@example.org', code } });
    expect([again.status, again.json.code]).toEqual([400, 'ProfileEmailCodeIncorrect']);
  });

  it('"already bound" comes only after the one-mail-a-minute slot, the same for every address', async () => {
    const { bob } = await s.signIn('bob');
    const probe = (email: string) => bob.req('POST', REBIND, { body: { email } });
    const first = await probe('new.alice@example.org');
    expect([first.status, first.json.code]).toEqual([409, 'ProfileEmailAlreadyBound']);
    // Before: a second probe within the minute answered 'already bound' again, mail-free. Now every address gets
    // the throttle's answer until the minute is over.
    const taken = await probe('carol@example.com');
    const free = await probe('nobody-has-this@example.org');
    expect([taken.status, taken.json.code]).toEqual([429, 'ProfileEmailTooFrequent']);
    expect([free.status, free.json.code]).toEqual([429, 'ProfileEmailTooFrequent']);
    expect(sink.mails).toHaveLength(0);
    expect((await bob.req('GET', '/individual/proxy/me')).json.email).toBe('bob@example.com');
  });

  it('binding a first address needs a recent proof too, and so does a resend', async () => {
    const { bob } = await s.signIn('bob');
    const gone = await bob.req('POST', UNBIND, { body: { email: 'bob@example.com' } });
    expect(gone.status, gone.text).toBe(200);
    const removed = await sink.waitFor('bob@example.com');
    expect(removed.links).toEqual([]);
    s.clock.advance(STALE_MS);
    const bare = await bob.req('POST', BIND, { body: { email: 'bob2@example.org' } });
    expect([bare.status, bare.json.code]).toEqual([403, 'ReauthRequired']);
    const proof = await bob.req('POST', REAUTH_PATHS.my, { body: { password: 'Secret#456' } });
    bob.csrf = proof.json.csrf_token;
    expect((await bob.req('POST', BIND, { body: { email: 'bob2@example.org' } })).status).toBe(200);
    s.clock.advance(61_000);
    expect((await bob.req('POST', BIND, { body: { email: 'bob2@example.org' } })).status).toBe(200);
  });
});
