// Artifact downloads authenticated by the service (issue 42): Debian's nginx in front of a directory of artifacts asks
// the service's internal endpoint about every download (auth_request), with the artifact password's 10-second rule.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { orgSeed, tempDataDir, useTestServer, type Client } from '../kit/server';
import { freePort } from '../kit/slapd';
import { startArtifactsNginx } from '../../scripts/lib/nginx';
import { DOWNLOAD_AUTH_PATH } from '../../plugins/packages-credential/server/download-routes';
import {
  DOWNLOAD_FAILURE_WINDOW_MS,
  DOWNLOAD_FAILURES_PER_ADDRESS,
  DOWNLOAD_FAILURES_PER_USERNAME,
} from '../../plugins/packages-credential/server/downloads';
import { PACKAGES_PASSWORD_DELAY_MS } from '../../plugins/packages-credential/contract';

const RESET = '/uiless/proxy/package/api/external/users/user/password';
const INFO = '/uiless/proxy/package/api/external/users/userInfo';
const SECRET = crypto.randomBytes(24).toString('hex');
const FILE = '/npm/demo/-/demo-1.0.0.tgz';
const CONTENT = 'demo tarball\n';
const NPM_AGENT = 'npm/10.8.2 node/v20.20.2 linux x64 workspaces/false';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('artifact downloads through nginx, judged by the service', () => {
  const s = useTestServer({ env: { INTERNAL_API_SECRET: SECRET }, seed: orgSeed('Acme', ['alice'], { signIn: true }) });
  let work: string;
  let base: string;
  let nginx: { stop(): void } | undefined;
  let alice: Client;
  let aliceId: string;

  beforeAll(async () => {
    alice = s.clients.alice;
    aliceId = s.users.alice.id;
    work = tempDataDir('account-artifacts-');
    fs.chmodSync(work, 0o755); // nginx's workers (nobody when started as root) read the files
    const root = path.join(work, 'artifacts');
    fs.mkdirSync(path.join(root, path.dirname(FILE)), { recursive: true });
    fs.writeFileSync(path.join(root, FILE), CONTENT);
    const port = await freePort();
    nginx = startArtifactsNginx(work, { listen: port, root, service: s.url, secret: SECRET });
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => {
    nginx?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  /** A download through nginx, as npm would send it. */
  const download = (password?: string, user = 'alice') =>
    fetch(base + FILE, {
      headers: { 'user-agent': NPM_AGENT, ...(password === undefined ? {} : { authorization: basic(user, password) }) },
    });
  /** The internal endpoint itself, as nginx calls it, from `address`. */
  const judge = (password: string, address: string, user = 'alice') =>
    fetch(s.url + DOWNLOAD_AUTH_PATH, {
      headers: {
        'x-internal-secret': SECRET,
        authorization: basic(user, password),
        'x-original-uri': FILE,
        'x-original-method': 'GET',
        'x-real-ip': address,
        'user-agent': NPM_AGENT,
      },
    });
  /** The same without a socket (Fastify's inject): the thousand-check test measures the check, not the loopback. */
  const judgeInProcess = (password: string, address: string) =>
    s.app.inject({
      method: 'GET',
      url: DOWNLOAD_AUTH_PATH,
      headers: {
        'x-internal-secret': SECRET,
        authorization: basic('alice', password),
        'x-original-uri': FILE,
        'x-real-ip': address,
        'user-agent': NPM_AGENT,
      },
    });
  const reset = async (): Promise<string> => {
    const a = await alice.req('POST', RESET);
    expect(a.status).toBe(200);
    return a.json.password;
  };
  const uses = () => s.ctx.credentialUses.timeline(aliceId, 'packages-password', aliceId);
  /** Each test starts in a minute of its own, so the one-row-a-minute throttle does not hide its uses. */
  const nextMinute = () => s.clock.advance(60_000 - (s.clock.now().getTime() % 60_000));

  let password: string;

  it('downloads with curl -u and the artifact password; refuses none, a wrong one and an unknown name', async () => {
    password = await reset();
    s.clock.advance(PACKAGES_PASSWORD_DELAY_MS);
    const curl = async (...args: string[]) => (await promisify(execFile)('curl', ['-sf', ...args])).stdout;
    expect(await curl('-u', `alice:${password}`, base + FILE)).toBe(CONTENT);
    // As Maven asks: first without credentials, then with them once the answer's challenge names Basic.
    expect(await curl('--anyauth', '-u', `alice:${password}`, base + FILE)).toBe(CONTENT);

    const none = await download();
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic realm="Artifact repository"/);
    expect((await download('wrong-password')).status).toBe(401);
    expect((await download(password, 'nobody')).status).toBe(401);

    const rows = await uses();
    expect(rows.map((u) => [u.outcome, u.reason, u.action, u.address]).sort()).toEqual([
      ['ok', null, `download ${FILE}`, '127.0.0.1'],
      ['refused', 'wrong-password', `download ${FILE}`, '127.0.0.1'],
    ]);
    const ok = rows.find((u) => u.outcome === 'ok')!;
    expect(ok.client).toMatch(/^curl\//);
    // The page shows the last download with its address and client (an unknown name recorded nothing for anybody).
    const info = await alice.req('GET', INFO);
    expect(info.json.last_use).toEqual({ at: s.clock.now().toISOString(), address: '127.0.0.1', client: ok.client });
    expect(await s.ctx.db.selectFrom('credential_uses').select('id').execute()).toHaveLength(2);
  });

  it('right after a reset the old password still works and the new one not; 10 s later the reverse', async () => {
    nextMinute();
    const old = password;
    password = await reset();
    expect((await download(old)).status).toBe(200);
    expect((await download(password)).status).toBe(401);
    const early = await uses();
    s.clock.advance(PACKAGES_PASSWORD_DELAY_MS);
    expect((await download(old)).status).toBe(401);
    expect((await download(password)).status).toBe(200);
    // A minute later (refused uses of one minute and address make one row) the old one is recorded as wrong.
    nextMinute();
    expect((await download(old)).status).toBe(401);
    const minute = (at: number) => Math.floor(at / 60_000);
    const recent = (await uses()).filter((u) => minute(u.at) >= minute(early[0].at));
    expect(recent.map((u) => [u.outcome, u.reason]).sort()).toEqual([
      ['ok', null],
      ['refused', 'not-yet'],
      ['refused', 'wrong-password'],
    ]);
  });

  it('1,000 downloads in a minute from one address write one row and check the password with argon2 once', async () => {
    nextMinute();
    const verify = vi.spyOn(s.ctx.hasher, 'verify');
    const before = (await uses()).length;
    let next = 0;
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < 1000) {
          next++;
          statuses.push((await judgeInProcess(password, '192.0.2.10')).statusCode);
        }
      }),
    );
    expect(statuses.filter((st) => st === 204)).toHaveLength(1000);
    expect((await uses()).length).toBe(before + 1);
    expect(verify.mock.calls.length).toBeLessThanOrEqual(1);
    verify.mockRestore();
  }, 90_000); // a thousand requests on PostgreSQL in a busy suite

  it('limits wrong passwords per address, and per username except from an address the password worked from', async () => {
    s.clock.advance(DOWNLOAD_FAILURE_WINDOW_MS); // the earlier tests' wrong passwords no longer count
    const guesser = (i: number) => `198.51.100.${i}`;
    for (let i = 0; i < DOWNLOAD_FAILURES_PER_ADDRESS; i++)
      expect((await judge(`guess-${i}`, guesser(1))).status).toBe(401);
    // Over the limit nothing is judged, the right password included (a guess learns nothing).
    const limited = await judge(password, guesser(1));
    expect(limited.status).toBe(403);
    expect((await limited.json()).code).toBe('PackagesTooManyFailures');
    // Guesses spread over addresses reach the username's limit…
    for (let n = DOWNLOAD_FAILURES_PER_ADDRESS; n < DOWNLOAD_FAILURES_PER_USERNAME; n++)
      expect((await judge(`guess-${n}`, guesser(1 + Math.floor(n / DOWNLOAD_FAILURES_PER_ADDRESS)))).status).toBe(401);
    expect((await judge(password, '203.0.113.5')).status).toBe(403);
    // …but the owner's CI, downloading from where the password worked before, goes on.
    expect((await judge(password, '192.0.2.10')).status).toBe(204);
    expect((await download(password)).status).toBe(200);
    // The window ends: the new address is judged again.
    s.clock.advance(DOWNLOAD_FAILURE_WINDOW_MS);
    expect((await judge(password, '203.0.113.5')).status).toBe(204);
  });

  it('answers 401 without the internal secret, and the endpoint is absent from the OpenAPI document', async () => {
    const a = await fetch(s.url + DOWNLOAD_AUTH_PATH, { headers: { authorization: basic('alice', password) } });
    expect(a.status).toBe(401);
    expect((await a.json()).code).toBe('InternalSecretInvalid');
    const wrong = await fetch(s.url + DOWNLOAD_AUTH_PATH, { headers: { 'x-internal-secret': 'x'.repeat(48) } });
    expect(wrong.status).toBe(401);
    const docs = await fetch(`${s.url}/api/docs/json`);
    expect(await docs.text()).not.toContain(DOWNLOAD_AUTH_PATH);
  });
});
