import { describe, expect, it } from 'vitest';
import aliyun from '../../editions/aliyun.json';
import dedicated from '../../editions/dedicated.json';
import global from '../../editions/global.json';
import vpc from '../../editions/vpc.json';
import type { EditionHosts } from '../../schemas/edition';
import { base64, credentialSnippets, shellWord, snippetHosts, xmlText, type SnippetHosts } from './credential-snippets';

const page = { protocol: 'https:', host: 'devops.example.com' };
const hostsOf = (m: object) => snippetHosts((m as { hosts?: EditionHosts }).hosts, page);
const textOf = (hosts: SnippetHosts, credential: 'token' | 'packages-password', secret: string, username = 'alice') =>
  Object.fromEntries(credentialSnippets({ credential, secret, username, hosts }).map((s) => [s.id, s.text]));

describe('credential snippets', () => {
  it('name the edition hosts, and the page host where an edition names none', () => {
    const a = hostsOf(aliyun);
    expect(a.codeHosting).toEqual({ origin: 'https://codeup.aliyun.com', host: 'codeup.aliyun.com' });
    expect(a.packages.origin).toBe('https://packages.aliyun.com');
    expect(a.containerRegistry).toEqual(a.packages); // no registry of its own: the packages host
    expect(a.openApi.host).toBe('openapi-rdc.aliyuncs.com');
    const g = hostsOf(global);
    expect(g.codeHosting.host).toBe('codeup.alibabacloud.com');
    expect(g.packages.host).toBe('devops.example.com');
    for (const m of [vpc, dedicated]) {
      const own = { origin: 'https://devops.example.com', host: 'devops.example.com' };
      expect(hostsOf(m)).toEqual({ codeHosting: own, packages: own, containerRegistry: own, openApi: own });
    }
    // A local trial keeps its scheme and port.
    expect(snippetHosts(undefined, { protocol: 'http:', host: 'localhost:3000' }).openApi.origin).toBe(
      'http://localhost:3000',
    );
    expect(
      snippetHosts({ packages: 'p.example.com', containerRegistry: 'r.example.com:5000' }, page).containerRegistry,
    ).toEqual({ origin: 'https://r.example.com:5000', host: 'r.example.com:5000' });
  });

  it('give a token git credentials and an open API call', () => {
    const t = textOf(hostsOf(aliyun), 'token', 'pt-AbC123');
    expect(Object.keys(t)).toEqual(['git', 'curl']);
    expect(t.git).toBe(
      [
        "git credential approve <<'EOF'",
        'protocol=https',
        'host=codeup.aliyun.com',
        'username=alice',
        'password=pt-AbC123',
        'EOF',
      ].join('\n'),
    );
    expect(t.curl).toBe("curl -H 'x-yunxiao-token: pt-AbC123' https://openapi-rdc.aliyuncs.com/oapi/v1/platform/user");
    const local = textOf(snippetHosts(undefined, { protocol: 'http:', host: 'localhost:3000' }), 'token', 'pt-x');
    expect(local.git).toContain('protocol=http\nhost=localhost:3000\n');
    expect(local.curl).toContain(' http://localhost:3000/oapi/v1/platform/user');
  });

  it('give the artifact password .npmrc, settings.xml and docker login', () => {
    const secret = `p@ss'w<rd>&"`;
    const t = textOf(hostsOf(aliyun), 'packages-password', secret, 'acct-1');
    expect(Object.keys(t)).toEqual(['npmrc', 'maven', 'docker']);
    expect(t.npmrc).toBe(
      [
        'registry=https://packages.aliyun.com/npm/',
        '//packages.aliyun.com/npm/:username=acct-1',
        `//packages.aliyun.com/npm/:_password=${Buffer.from(secret).toString('base64')}`,
      ].join('\n'),
    );
    expect(t.maven).toContain('<id>packages</id>\n      <username>acct-1</username>');
    expect(t.maven).toContain('<password>p@ss&#39;w&#60;rd&#62;&#38;&#34;</password>');
    expect(t.maven).toContain('<mirrorOf>*</mirrorOf>\n      <url>https://packages.aliyun.com/maven/</url>');
    expect(t.docker).toBe(
      `printf '%s' 'p@ss'\\''w<rd>&"' | docker login --username acct-1 --password-stdin packages.aliyun.com`,
    );
    expect(textOf(hostsOf(vpc), 'packages-password', 'Plain1').docker).toBe(
      "printf '%s' Plain1 | docker login --username alice --password-stdin devops.example.com",
    );
  });

  it('quote for the shell, XML and npm', () => {
    expect(shellWord('abc-1.2_3')).toBe('abc-1.2_3');
    expect(shellWord('a b')).toBe("'a b'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
    expect(shellWord('$HOME')).toBe("'$HOME'");
    expect(xmlText('<a&b>')).toBe('&#60;a&#38;b&#62;');
    expect(base64('密码')).toBe(Buffer.from('密码').toString('base64'));
  });
});
