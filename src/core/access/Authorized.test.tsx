import { render, screen } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { cleanup } from '@testing-library/react';
import { AccessContext, Authorized } from './Authorized';
import en from '../messages/en_US.json';
import zh from '../messages/zh_CN.json';

function wrap(ui: ReactNode, flags: Record<string, boolean> = {}, locale: 'en' | 'zh' = 'en') {
  return render(
    <IntlProvider locale={locale} messages={locale === 'en' ? en : zh}>
      <AccessContext.Provider value={flags}>{ui}</AccessContext.Provider>
    </IntlProvider>,
  );
}

describe('<Authorized>', () => {
  it('renders children when one listed permission is granted', () => {
    wrap(<Authorized auth={['codeup', 'packages']}>secret page</Authorized>, { packages: true });
    expect(screen.getByText('secret page')).toBeTruthy();
  });

  it('renders children when no auth list is given or it is empty', () => {
    wrap(
      <>
        <Authorized>
          <p>open A</p>
        </Authorized>
        <Authorized auth={[]}>
          <p>open B</p>
        </Authorized>
      </>,
    );
    expect(screen.getByText('open A')).toBeTruthy();
    expect(screen.getByText('open B')).toBeTruthy();
  });

  it("shows 'No permission' when denied and no fallback is given, in the app locale", () => {
    wrap(<Authorized auth={['codeup']}>secret page</Authorized>);
    expect(screen.queryByText('secret page')).toBeNull();
    expect(screen.getByText('No permission')).toBeTruthy();
    cleanup();
    wrap(<Authorized auth={['codeup']}>secret page</Authorized>, {}, 'zh');
    expect(screen.getByText('无权限')).toBeTruthy();
  });

  it('shows the fallback when denied', () => {
    wrap(
      <Authorized auth={['codeup']} fallback={<span>ask your admin</span>}>
        secret page
      </Authorized>,
    );
    expect(screen.getByText('ask your admin')).toBeTruthy();
    expect(screen.queryByText('No permission')).toBeNull();
  });

  it('prefers explicit flags over the context', () => {
    wrap(
      <Authorized auth={['codeup']} flags={{ codeup: true }}>
        explicit
      </Authorized>,
    );
    expect(screen.getByText('explicit')).toBeTruthy();
  });
});
