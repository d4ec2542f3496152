import { render, screen } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { computeAccess } from '../core/access';
import { edition } from '../core/edition';
import { createRegistry, definePlugin } from '../core/plugin';
import { ErrorBoundary } from './errors/ErrorBoundary';
import { ERROR_PAGES, ErrorPage, errorPageFor } from './errors/ErrorPage';
import en from './messages/en_US.json';
import zh from './messages/zh_CN.json';
import { permittedSections } from './SettingsShell';
import { logoutUrl, switchOrganizationUrl } from './TopBar';
import { clampSiderWidth, SIDER_MIN_WIDTH } from './useSiderState';

const page = () => Promise.resolve({ default: () => null });
const registry = createRegistry(
  ['profile', 'personalAccessToken', 'ssh', 'packagesCredential', 'third-party', 'identity-provider'].map((key) =>
    definePlugin({
      id: `p-${key}`,
      settingsSections: [{ key, messageId: `p-${key}.t`, load: page }],
      messages: { zh_CN: {}, en_US: {} },
    }),
  ),
);
const user = { id: 'u1' };

describe('settings menu (vpc edition)', () => {
  it('shows SSH only with code hosting and the credential only with packages, in manifest order', () => {
    const keys = (apps: string[]) =>
      permittedSections(registry, computeAccess({ user, installedApps: apps, edition })).map((s) => s.key);
    expect(keys([])).toEqual(['profile', 'personalAccessToken', 'third-party']);
    expect(keys(['codeup'])).toEqual(['profile', 'personalAccessToken', 'ssh', 'third-party']);
    expect(keys(['codeup', 'packages'])).toEqual([
      'profile',
      'personalAccessToken',
      'ssh',
      'packagesCredential',
      'third-party',
    ]);
  });

  it('never lists identity-provider: it is in no default menu', () => {
    const all = permittedSections(registry, computeAccess({ user, installedApps: ['codeup', 'packages'], edition }));
    expect(all.map((s) => s.key)).not.toContain('identity-provider');
  });
});

describe('shell rules', () => {
  it('clamps the dragged side bar to at least 200 px', () => {
    expect(SIDER_MIN_WIDTH).toBe(200);
    expect(clampSiderWidth(120)).toBe(200);
    expect(clampSiderWidth(260.4)).toBe(260);
  });

  it('sends organisation change and logout back to the current address', () => {
    const here = 'http://h/users/settings/ssh?x=1';
    expect(switchOrganizationUrl(here)).toBe(`/users/switch/organization?nextUrl=${encodeURIComponent(here)}`);
    expect(logoutUrl(here)).toBe(`/users/logout?next=${encodeURIComponent(here)}`);
  });

  it('maps error types to pages and unknown ones to 404', () => {
    expect(errorPageFor('ip-restricted')).toBe(ERROR_PAGES['ip-restricted']);
    expect(errorPageFor('constructor')).toBe(ERROR_PAGES['404']);
    expect(errorPageFor(null)).toBe(ERROR_PAGES['404']);
  });

  it('has every error page in both languages', () => {
    for (const p of Object.values(ERROR_PAGES)) {
      expect(zh[p.title as keyof typeof zh], p.title).toBeTruthy();
      expect(en[p.description as keyof typeof en], p.description).toBeTruthy();
    }
    render(
      <IntlProvider locale="en" messages={en}>
        <MemoryRouter initialEntries={['/users/errors?type=ip-restricted']}>
          <ErrorPage />
        </MemoryRouter>
      </IntlProvider>,
    );
    expect(screen.getByText(/IP access is restricted; contact the administrator/)).toBeTruthy();
  });

  it('switches to the fallback when rendering throws', () => {
    const Boom = () => {
      throw new Error('boom');
    };
    const spy = console.error;
    console.error = () => {};
    render(
      <IntlProvider locale="en" messages={en}>
        <ErrorBoundary>
          <Boom />
        </ErrorBoundary>
        <ErrorBoundary variant="page">
          <Boom />
        </ErrorBoundary>
      </IntlProvider>,
    );
    console.error = spy;
    expect(screen.getByText('Oops! Something went wrong.')).toBeTruthy();
    expect(screen.getByText('Sorry, the page you visited is abnormal')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeTruthy();
  });
});
