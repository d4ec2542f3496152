import { execFile, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer, useTestServer } from '../kit/server';
import { createDemoRepository, startGitSshd, type GitSshd } from '../../scripts/lib/sshd';

// Git over SSH authenticated by the service (issue 42): a real sshd on loopback whose AuthorizedKeysCommand and forced
// command are the gate programs (server/git-gate), asking this service through its internal API. Keys are made by
// ssh-keygen and added through the product's own SSH key API; git clones and pushes a bare repository.

const SECRET = crypto.randomBytes(32).toString('hex');
const KEYS = '/uiless/proxy/codeup/api/v3/user/keys';
const DAY = 24 * 60 * 60 * 1000;

// Each git command starts three node programs under sshd: on two busy cores a test may pass the default 30 s.
describe('git over SSH', { timeout: 60_000 }, () => {
  const s = useTestServer({
    env: { INTERNAL_API_SECRET: SECRET },
    seed: {
      orgs: {
        Acme: ['codeup'],
        Walled: { apps: ['codeup'], members: ['alice'], ipWhitelist: ['10.0.0.0/8'] },
        Other: ['codeup'],
      },
      users: { alice: { password: 'Secret#123', org: 'Acme' }, bob: { password: 'Secret#123', org: 'Other' } },
      signIn: ['alice', 'bob'],
    },
  });
  let sshd: GitSshd;
  let dir: string;
  let repos: string;
  /** Key name → private key file and the key's id in the service. */
  const keys: Record<string, { file: string; id: string }> = {};

  /** Runs git with the key `name`; resolves its exit code and stderr (never rejects). */
  const git = (name: string, args: string[], cwd = dir, env: Record<string, string> = {}) =>
    new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        'git',
        args,
        {
          cwd,
          env: {
            PATH: process.env.PATH ?? '/usr/bin:/bin',
            HOME: dir,
            GIT_CONFIG_NOSYSTEM: '1',
            GIT_TERMINAL_PROMPT: '0',
            GIT_SSH_COMMAND: sshd.sshCommand(keys[name].file),
            LANG: 'en_US.UTF-8',
            ...env,
          },
        },
        (err, _stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stderr }),
      );
    });
  const url = (repo: string) => `${sshd.user}@127.0.0.1:${repo}`;
  const clone = (name: string, repo = 'Acme/demo.git', into = `${name}-${crypto.randomBytes(3).toString('hex')}`) =>
    git(name, ['clone', '-q', url(repo), into]).then((r) => ({ ...r, into: path.join(dir, into) }));
  const uses = (name: string) => s.ctx.credentialUses.timeline(s.users.alice.id, 'ssh-key', keys[name].id);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-over-ssh-'));
    repos = path.join(dir, 'repositories');
    createDemoRepository(repos, 'Acme');
    createDemoRepository(repos, 'Walled');
    sshd = await startGitSshd({ service: s.url, secret: SECRET, repositories: repos });
    const add = async (client: Client, name: string, body: Record<string, unknown>) => {
      const file = path.join(dir, name);
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', file]);
      const a = await client.req('POST', KEYS, {
        body: { name, key: fs.readFileSync(`${file}.pub`, 'utf8'), ...body },
      });
      expect(a.status, a.text).toBe(201);
      keys[name] = { file, id: a.json.id };
    };
    const { alice, bob } = s.clients;
    await add(alice, 'reader', { scope: 'read_only' });
    await add(alice, 'writer', { scope: 'read_write' });
    await add(alice, 'dated', {
      scope: 'read_write',
      expires_at: new Date(s.clock.now().getTime() + DAY).toISOString(),
    });
    await add(alice, 'gone', { scope: 'read_write' });
    await add(bob, 'outsider', { scope: 'read_write' });
  }, 60_000);
  afterAll(async () => {
    await sshd?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('clones with a read-only key and records the use: the key list shows it with its address', async () => {
    const r = await clone('reader');
    expect(r.code, `${r.stderr}\n${sshd.log()}`).toBe(0);
    expect(fs.readFileSync(path.join(r.into, 'README.md'), 'utf8')).toContain('Acme/demo.git');
    const listed = (await s.clients.alice.req('GET', KEYS)).json.find((k: { id: string }) => k.id === keys.reader.id);
    expect(listed).toMatchObject({
      last_used_at: s.clock.now().toISOString(),
      last_use: { at: s.clock.now().toISOString(), address: '127.0.0.1', client: 'git over ssh' },
    });
    expect((await uses('reader')).map((u) => [u.action, u.outcome])).toEqual([['git-upload-pack Acme/demo.git', 'ok']]);
    // The organisation is matched whatever its case; the path a client names may start with / (ssh:// URLs).
    const ssh = await git('reader', ['clone', '-q', `ssh://${sshd.user}@127.0.0.1:${sshd.port}/acme/demo`, 'by-url']);
    expect(ssh.code, ssh.stderr).toBe(0);
  });

  it('refuses a push with the read-only key in the member’s language, and lets a read-write key push', async () => {
    const r = await clone('writer');
    expect(r.code, r.stderr).toBe(0);
    const commit = (msg: string) =>
      execFileSync(
        'git',
        ['-c', 'user.name=Alice', '-c', 'user.email=a@example.com', 'commit', '-q', '--allow-empty', '-m', msg],
        {
          cwd: r.into,
        },
      );
    commit('from alice');
    const refused = await git('reader', ['push', '-q', 'origin', 'main'], r.into);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      'Your SSH key "reader" is read-only: it can clone and pull but not push. Use a read-write key, or change its scope in your account settings, under SSH keys.',
    );
    expect((await uses('reader')).find((u) => u.outcome === 'refused')).toMatchObject({
      action: 'git-receive-pack Acme/demo.git',
      reason: 'read-only',
      address: '127.0.0.1',
    });
    // The security page's history tells of it, with the client's address.
    const history = (await s.clients.alice.req('GET', '/users/ajax/v1/my/history')).json.entries as {
      kind: string;
    }[];
    expect(history.find((e) => e.kind === 'credential.refused')).toMatchObject({
      address: '127.0.0.1',
      detail: { action: 'git-receive-pack Acme/demo.git', refusal: 'read-only' },
    });
    // Her own language wins over the client's.
    await s.ctx.db.updateTable('users').set({ language: 'zh_CN' }).where('id', '=', s.users.alice.id).execute();
    const zh = await git('reader', ['push', '-q', 'origin', 'main'], r.into);
    expect(zh.stderr).toContain('你的 SSH 公钥“reader”为只读权限，只能克隆和拉取，不能推送。');
    await s.ctx.db.updateTable('users').set({ language: null }).where('id', '=', s.users.alice.id).execute();

    const pushed = await git('writer', ['push', '-q', 'origin', 'main'], r.into);
    expect(pushed.code, pushed.stderr).toBe(0);
    const head = execFileSync(
      'git',
      ['--git-dir', path.join(repos, 'Acme/demo.git'), 'log', '-1', '--format=%s', 'main'],
      {
        encoding: 'utf8',
      },
    );
    expect(head.trim()).toBe('from alice');
  });

  it('refuses a member of another organisation, and a member outside the organisation’s IP whitelist', async () => {
    const outsider = await clone('outsider');
    expect(outsider.code).not.toBe(0);
    expect(outsider.stderr).toContain('You have no permission for this organization.');
    const walled = await clone('writer', 'Walled/demo.git');
    expect(walled.code).not.toBe(0);
    expect(walled.stderr).toContain(
      'IP access is restricted; contact the administrator to change security settings in the console.',
    );
    expect((await uses('writer')).find((u) => u.outcome === 'refused')).toMatchObject({
      action: 'git-upload-pack Walled/demo.git',
      reason: 'ip-whitelist',
    });
    // The service allows, the disk has no such repository: the gate says so (paths it refuses: command.test.ts).
    const missing = await clone('writer', 'Acme/nothing.git');
    expect(missing.stderr).toContain('The repository "Acme/nothing.git" does not exist.');
  });

  it('refuses a deleted key (sshd no longer accepts it) and an expired one (with the product’s message)', async () => {
    expect((await s.clients.alice.req('DELETE', `${KEYS}/${keys.gone.id}`)).status).toBe(200);
    const gone = await clone('gone');
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toContain('Permission denied (publickey)');

    expect((await clone('dated')).code).toBe(0);
    s.clock.advance(DAY);
    const expired = await clone('dated');
    expect(expired.code).not.toBe(0);
    expect(expired.stderr).toMatch(/Your SSH key "dated" expired on \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  });

  it('keeps the internal API behind the secret and out of the public document', async () => {
    const lines = (secret?: string) =>
      fetch(`${s.url}/internal/v1/ssh/authorized-keys?type=ssh-ed25519&key=AAAA`, {
        headers: secret ? { 'x-internal-secret': secret } : {},
      });
    expect((await lines()).status).toBe(401);
    expect((await lines('x'.repeat(64))).status).toBe(401);
    const ok = await lines(SECRET);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('');
    const pub = fs.readFileSync(`${keys.reader.file}.pub`, 'utf8').split(' ');
    const known = await fetch(
      `${s.url}/internal/v1/ssh/authorized-keys?${new URLSearchParams({ type: pub[0], key: pub[1], gate: '/opt/gate' })}`,
      { headers: { 'x-internal-secret': SECRET } },
    );
    expect(await known.text()).toBe(
      `command="/opt/gate ${keys.reader.id}",restrict,no-port-forwarding,no-agent-forwarding,no-X11-forwarding,no-pty,no-user-rc ${pub[0]} ${pub[1]}\n`,
    );
    // What the gate asks, asked directly: a held account and one that must change its password are refused too.
    const access = (address = '127.0.0.1', more: Record<string, string> = {}) =>
      fetch(`${s.url}/internal/v1/ssh/git-access`, {
        method: 'POST',
        headers: { 'x-internal-secret': SECRET, 'content-type': 'application/json', 'accept-language': 'en' },
        body: JSON.stringify({
          key_id: keys.writer.id,
          command: 'git-upload-pack',
          repository: 'Acme/demo.git',
          address,
          ...more,
        }),
      }).then(async (r) => ({ status: r.status, json: await r.json() }));
    expect(await access()).toMatchObject({ status: 200, json: { repository: 'Acme/demo.git', username: 'alice' } });
    expect((await access('not an address')).status).toBe(400);
    // Nothing the database would choke on (PostgreSQL refuses a NUL) gets past the contract.
    const nul: Record<string, string>[] = [
      { key_id: 'a\u0000' },
      { repository: 'Acme/d\u0000.git' },
      { client: 'git\u0000' },
    ];
    for (const more of nul)
      expect((await access('127.0.0.1', more)).json).toMatchObject({ status: 400, code: 'InvalidParameter' });
    const users = () => s.ctx.db.updateTable('users').where('id', '=', s.users.alice.id);
    await users().set({ held_at: s.clock.now().getTime() }).execute();
    expect((await access()).json).toMatchObject({ status: 403, code: 'AccountHeld' });
    await users().set({ held_at: null, must_change_password: 1 }).execute();
    expect((await access()).json).toMatchObject({ status: 403, code: 'PasswordChangeRequired' });
    await users().set({ must_change_password: 0 }).execute();
    // The secret is never written to the log.
    expect(s.logs.join('\n')).not.toContain(SECRET);

    const doc = (await new Client(s.url).req('GET', '/api/docs/json')).json as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/internal'))).toEqual([]);

    // Without a secret configured the internal API is not there at all.
    const bare = await startTestServer();
    try {
      const r = await fetch(`${bare.url}/internal/v1/ssh/authorized-keys?type=ssh-ed25519&key=AAAA`, {
        headers: { 'x-internal-secret': SECRET },
      });
      expect(r.status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
