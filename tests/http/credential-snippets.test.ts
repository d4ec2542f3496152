import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDataDir, useTestServer } from '../kit/server';
import { issueToken } from '../../plugins/access-tokens/server/tokens';
import { SCOPE_USER_READ } from '../../server/routes/oapi';
import { credentialSnippets, snippetHosts } from '../../src/core/credential-snippets';

// The ready-to-paste snippets (issue 42) run as pasted: on a private deployment (an edition naming no host: the
// page's own, here the service's) the token's curl call answers its owner; git takes the credential-helper snippet.

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
