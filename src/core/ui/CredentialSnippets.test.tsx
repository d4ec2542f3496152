import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import aliyun from '../../../editions/aliyun.json';
import type { EditionHosts } from '../../../schemas/edition';
import enUS from '../messages/en_US.json';
import zhCN from '../messages/zh_CN.json';
import { LazyCredentialSnippets } from './LazyCredentialSnippets';
import type { CredentialSnippetsProps } from './CredentialSnippets';

// The component reads the edition's hosts: each test picks the edition it plays (vpc names none).
const current = vi.hoisted(() => ({ hosts: undefined as EditionHosts | undefined }));
vi.mock('../edition', () => ({
  edition: {
    get hosts() {
      return current.hosts;
    },
  },
}));

const page = { protocol: 'https:', host: 'devops.example.com' };

async function show(props: Omit<CredentialSnippetsProps, 'page'>, locale: 'en_US' | 'zh_CN' = 'en_US') {
  render(
    <IntlProvider locale={locale === 'en_US' ? 'en' : 'zh'} messages={locale === 'en_US' ? enUS : zhCN}>
      <LazyCredentialSnippets {...props} page={page} />
    </IntlProvider>,
  );
  // The first test waits for the lazy chunk's first load (antd's Tabs, cold).
  return screen.findByTestId('credential-snippets', {}, { timeout: 15_000 });
}

const tab = (name: string) => act(async () => fireEvent.click(screen.getByRole('tab', { name })));
const textOf = (id: string) => screen.getByTestId(`snippet-${id}-text`).textContent;

afterEach(() => {
  cleanup();
  current.hosts = undefined;
});

describe('CredentialSnippets', () => {
  it("offers a token git and curl on the edition's hosts, and copies the one chosen", async () => {
    current.hosts = aliyun.hosts;
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const group = await show({ credential: 'token', secret: 'pt-Secret1', username: 'alice' });
    expect(group.getAttribute('role')).toBe('group');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['git over HTTPS', 'curl']);
    expect(textOf('git')).toContain('host=codeup.aliyun.com\nusername=alice\npassword=pt-Secret1\n');
    await tab('curl');
    expect(textOf('curl')).toBe(
      "curl -H 'x-yunxiao-token: pt-Secret1' https://openapi-rdc.aliyuncs.com/oapi/v1/platform/user",
    );
    const copy = screen.getByRole('button', { name: 'Copy curl' });
    await act(async () => fireEvent.click(copy));
    expect(writeText).toHaveBeenCalledWith(textOf('curl'));
    expect(screen.getByTestId('snippet-curl-status').textContent).toBe('Copied');
    expect(screen.getByTestId('snippet-curl-status').getAttribute('role')).toBe('status');
    // Another tab starts without the last result.
    await tab('git over HTTPS');
    expect(screen.getByTestId('snippet-git-status').textContent).toBe('');
  });

  it('offers the artifact password .npmrc, Maven and Docker on the page host when the edition names none', async () => {
    await show({ credential: 'packages-password', secret: 'Pw-123', username: 'acct-9' }, 'zh_CN');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['.npmrc', 'Maven', 'Docker']);
    expect(textOf('npmrc')).toBe(
      [
        'registry=https://devops.example.com/npm/',
        '//devops.example.com/npm/:username=acct-9',
        `//devops.example.com/npm/:_password=${btoa('Pw-123')}`,
      ].join('\n'),
    );
    await tab('Maven');
    expect(textOf('maven')).toContain('<password>Pw-123</password>');
    expect(textOf('maven')).toContain('<url>https://devops.example.com/maven/</url>');
    await tab('Docker');
    expect(textOf('docker')).toBe(
      "printf '%s' Pw-123 | docker login --username acct-9 --password-stdin devops.example.com",
    );
    expect(screen.getByRole('button', { name: '复制 Docker' })).toBeTruthy();
  });

  it('says so when the browser refuses to copy', async () => {
    const writeText = vi.fn().mockRejectedValue(new Error('denied'));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await show({ credential: 'packages-password', secret: 'Pw-123', username: 'acct-9' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy .npmrc' })));
    expect(screen.getByTestId('snippet-npmrc-status').textContent).toMatch(/did not allow copying/);
  });
});
