import { describe, expect, it, vi } from 'vitest';
import { Client, INBOX, useTestServer, type Answer } from '../kit/server';
import { LOCK_AT_FAILURES, LOCK_DURATION_MS } from '../../server/auth/lockout';

// Whoever holds a session (a stolen one, a shared computer) cannot guess the current password at the password
// change any faster than a stranger at the sign-in page: a wrong current password takes a slot of the account's
// sign-in lockout before it is evaluated: in the lock of the browser it comes from (smart lockout), the marked one
// for a browser signed in to the account (as every browser holding its session was, unless the cookie was copied).
const PASSWORD = 'Secret#123';
const CHANGE = '/users/ajax/v1/my/password';

describe('wrong current passwords at the password change count like failed sign-ins', () => {
  const users = ['alice', 'bob', 'carol', 'dave'];
  const s = useTestServer({ seed: { users: Object.fromEntries(users.map((u) => [u, { password: PASSWORD }])) } });

  const signedIn = async (username: string) => {
    const c = new Client(s.url);
    expect((await c.login(username, PASSWORD)).status).toBe(200);
    return c;
  };
  const change = (c: Client, oldPassword: string, newPassword = 'Brand#New9') =>
    c.req('PUT', CHANGE, { body: { new_password: newPassword, old_password: oldPassword } });
  const codes = (answers: Answer[]) =>
    answers.reduce<Record<string, number>>((n, a) => ({ ...n, [a.json.code]: (n[a.json.code] ?? 0) + 1 }), {});

  it('the 5th wrong current password locks the account for an hour: the right one, and sign-in, are refused until then', async () => {
    const c = await signedIn('alice');
    const answers: Array<[number, string]> = [];
    for (let i = 0; i < LOCK_AT_FAILURES + 1; i++) {
      const a = await change(c, `Wrong#${i}000`);
      answers.push([a.status, a.json.code]);
    }
    expect(answers).toEqual([
      [400, 'OldPasswordIncorrect'],
      [400, 'OldPasswordIncorrect'],
      [400, 'OldPasswordIncorrect'],
      [400, 'OldPasswordIncorrect'],
      [423, 'AccountLocked'],
      [423, 'AccountLocked'],
    ]);
    const right = await change(c, PASSWORD);
    expect([right.status, right.json.code]).toEqual([423, 'AccountLocked']);
    // Sign-in from the account's marked browsers is locked too; a browser without its mark counts apart.
    expect((await c.login('alice', PASSWORD)).status).toBe(423);
    expect((await new Client(s.url).login('alice', PASSWORD)).status).toBe(200);
    // The owner hears of it, as of a lock at the sign-in page.
    const inbox = await c.req('POST', `${INBOX}:list`, { body: { page_size: 100 } });
    expect(inbox.json.messages.filter((m: { type: string }) => m.type === 'account.locked')).toHaveLength(1);
    // The password did not change, and the session still works for everything else.
    expect((await c.req('GET', '/individual/proxy/me')).status).toBe(200);

    // Once the hour is over (the idle session has ended too), the owner signs in and changes it.
    s.clock.advance(LOCK_DURATION_MS + 1000);
    const after = await change(await signedIn('alice'), PASSWORD);
    expect(after.status, after.text).toBe(200);
    expect((await new Client(s.url).login('alice', 'Brand#New9')).status).toBe(200);
  });

  it('20 parallel wrong current passwords evaluate at most 5 and lock the account', async () => {
    const c = await signedIn('bob');
    const verify = vi.spyOn(s.ctx.hasher, 'verify');
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => change(c, `Wrong#${i}999`)));
      const evaluated = verify.mock.calls.length;
      expect(codes(answers)).toEqual({
        OldPasswordIncorrect: LOCK_AT_FAILURES - 1,
        AccountLocked: 21 - LOCK_AT_FAILURES,
      });
      expect(evaluated).toBe(LOCK_AT_FAILURES);
      console.log(
        `20 parallel wrong current passwords: ${evaluated} evaluated, answers ${JSON.stringify(codes(answers))}`,
      );
    } finally {
      verify.mockRestore();
    }
    expect((await change(c, PASSWORD)).status).toBe(423);
    expect((await c.login('bob', PASSWORD)).status).toBe(423);
  });

  it('shares the count with sign-in failures, and a right current password clears it', async () => {
    const c = await signedIn('carol');
    // Two failures at the sign-in page of the same (marked) browser, all it allows without the slider, three at
    // the change: locked. Failures from browsers without the mark are another lock's.
    for (let i = 0; i < 2; i++) expect((await new Client(s.url).login('carol', 'Wrong#999')).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await c.login('carol', 'Wrong#999')).status).toBe(401);
    expect((await change(c, 'Wrong#1')).json.code).toBe('OldPasswordIncorrect');
    expect((await change(c, 'Wrong#2')).json.code).toBe('OldPasswordIncorrect');
    expect((await change(c, 'Wrong#3')).json.code).toBe('AccountLocked');

    const d = await signedIn('dave');
    for (let i = 0; i < LOCK_AT_FAILURES - 1; i++) expect((await change(d, `Wrong#${i}`)).status).toBe(400);
    // Right, though the new password is refused by its rule: the current one was right, the count starts over.
    expect((await change(d, PASSWORD, PASSWORD)).json.code).toBe('PasswordSameAsOld');
    for (let i = 0; i < LOCK_AT_FAILURES - 1; i++) expect((await change(d, `Wrong#${i}`)).status).toBe(400);
    expect((await change(d, PASSWORD)).status).toBe(200);
  });
});
