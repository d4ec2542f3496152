import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { orgSeed, tempDataDir, useTestServer } from '../kit/server';
import { freePort } from '../kit/slapd';
import { NGINX, startArtifactsNginx } from '../../scripts/lib/nginx';
import { PACKAGES_PASSWORD_DELAY_MS } from '../../plugins/packages-credential/contract';
import { issueToken } from '../../plugins/access-tokens/server/tokens';
import { SCOPE_USER_READ } from '../../server/routes/oapi';
import { credentialSnippets, snippetHosts } from '../../src/core/credential-snippets';

// The ready-to-paste snippets (issue 42) run as pasted: on a private deployment (an edition naming no host: the
// page's own, here the service's) the token's curl call answers its owner; git takes the credential-helper snippet;
// npm, given the .npmrc snippet, reads a package through the artifact front door (nginx asking the service).

const run = promisify(execFile);

describe('credential snippets, pasted into a shell', () => {
  const s = useTestServer({ seed: { users: { alice: { password: 'Secret#123' } } } });
  const snippet = (id: string, secret: string, host?: string) => {
    const url = new URL(s.url);
    const hosts = snippetHosts(host ? { codeHosting: host } : undefined, { protocol: url.protocol, host: url.host });
    return credentialSnippets({ credential: 'token', secret, username: 'alice', hosts }).find((x) => x.id === id)!.text;
  };

  it("the curl snippet calls the open API on the page's host and answers the token's owner", async () => {
    const { token } = await issueToken(s.ctx.db, s.clock, {
      userId: s.users.alice.id,
      name: 'pasted',
      scopes: [SCOPE_USER_READ],
      expiresAt: new Date(s.clock.now().getTime() + 86_400_000),
    });
    const { stdout } = await run('bash', ['-c', `${snippet('curl', token)} --silent --show-error --fail`]);
    expect(JSON.parse(stdout)).toMatchObject({ id: s.users.alice.id, username: 'alice' });
  });

  it("git's credential helper keeps the git snippet's credential for the code host", async () => {
    const home = tempDataDir('snippet-git-');
    try {
      const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
      const text = snippet('git', "pt-a'b$c", 'codeup.example.com');
      await run('bash', ['-c', `git config --global credential.helper store && ${text}`], { env });
      const stored = fs.readFileSync(path.join(home, '.git-credentials'), 'utf8');
      expect(stored.trim()).toBe(`https://alice:pt-a%27b%24c@codeup.example.com`);
      const { stdout } = await run(
        'bash',
        ['-c', `printf 'protocol=https\\nhost=codeup.example.com\\n\\n' | git credential fill`],
        {
          env,
        },
      );
      expect(stdout).toContain("username=alice\npassword=pt-a'b$c\n");
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!NGINX)('the .npmrc snippet, used by npm against the artifact front door', () => {
  const secret = 'snippet-internal-secret-0123456789abcdef';
  const s = useTestServer({ env: { INTERNAL_API_SECRET: secret }, seed: orgSeed('Acme', ['alice'], { signIn: true }) });

  it('npm reads a package with the password the snippet carries, and is refused with another', async () => {
    const work = tempDataDir('snippet-npm-');
    fs.chmodSync(work, 0o755); // nginx's workers read the files
    const root = path.join(work, 'artifacts');
    fs.mkdirSync(path.join(root, 'npm', 'demo'), { recursive: true });
    const packument = {
      name: 'demo',
      'dist-tags': { latest: '1.0.0' },
      versions: { '1.0.0': { name: 'demo', version: '1.0.0' } },
    };
    fs.writeFileSync(path.join(root, 'npm', 'demo', 'index.json'), JSON.stringify(packument));
    const port = await freePort();
    const nginx = startArtifactsNginx(work, { listen: port, root, service: s.url, secret });
    try {
      const reset = await s.clients.alice.req('POST', '/uiless/proxy/package/api/external/users/user/password');
      expect(reset.status).toBe(200);
      s.clock.advance(PACKAGES_PASSWORD_DELAY_MS);
      const npmView = (password: string) => {
        const hosts = snippetHosts(undefined, { protocol: 'http:', host: `127.0.0.1:${port}` });
        const [npmrc] = credentialSnippets({
          credential: 'packages-password',
          secret: password,
          username: 'alice',
          hosts,
        });
        fs.writeFileSync(path.join(work, '.npmrc'), npmrc.text + '\n');
        return run('npm', ['view', 'demo', 'version', '--fetch-retries=0', '--no-update-notifier'], {
          cwd: work,
          env: { PATH: process.env.PATH, HOME: work, npm_config_cache: path.join(work, 'cache') },
        });
      };
      expect((await npmView(reset.json.password)).stdout.trim()).toBe('1.0.0');
      await expect(npmView('not-the-password')).rejects.toMatchObject({ stderr: expect.stringMatching(/E401/) });
      const info = await s.clients.alice.req('GET', '/uiless/proxy/package/api/external/users/userInfo');
      expect(info.json.last_use).toMatchObject({ address: '127.0.0.1', client: expect.stringMatching(/^npm\//) });
    } finally {
      nginx.stop();
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
