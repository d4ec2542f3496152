import { cleanup, render, screen } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { describe, expect, it } from 'vitest';
import enUS from '../messages/en_US.json';
import zhCN from '../messages/zh_CN.json';
import { LastUsed, type LastUsedProps } from './LastUsed';

function show(props: Omit<LastUsedProps, 'data-testid'>, locale: 'en' | 'zh' = 'en') {
  render(
    <IntlProvider locale={locale === 'en' ? 'en-US' : 'zh-CN'} messages={locale === 'en' ? enUS : zhCN}>
      <LastUsed {...props} data-testid="last" />
    </IntlProvider>,
  );
  return screen.getByTestId('last');
}

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

describe('a credential’s last use', () => {
  it('says how long ago and from where, the exact time in the <time>', () => {
    const at = minutesAgo(3);
    const line = show({ lastUse: { at, address: '203.0.113.5', client: 'curl/8.5.0' }, lastUsedAt: at });
    expect(line.textContent).toBe('3 minutes ago · 203.0.113.5');
    expect(line.querySelector('time')?.getAttribute('dateTime')).toBe(at);
    cleanup();
    expect(show({ lastUse: { at, address: '203.0.113.5', client: null } }, 'zh').textContent).toBe(
      '3分钟前 · 203.0.113.5',
    );
  });

  it('shows the time alone past the recorded uses, and never used otherwise', () => {
    expect(show({ lastUse: null, lastUsedAt: minutesAgo(60 * 24 * 120) }).textContent).toMatch(/months ago$/);
    cleanup();
    expect(show({ lastUse: null, lastUsedAt: null }).textContent).toBe('Never used');
    cleanup();
    expect(show({ lastUse: null }, 'zh').textContent).toBe('从未使用');
  });
});
