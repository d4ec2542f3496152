import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Link } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderWithCore, setViewport } from '../../tests/kit/web';
import { AppLayout } from './AppLayout';

const menu = (
  <nav aria-label="Sections">
    <Link to="/users/settings/ssh">SSH keys</Link>
    <Link to="/users/settings/profile">Profile</Link>
  </nav>
);

const layout = (
  <AppLayout sider={menu} siderLabel="Personal settings">
    <p>content</p>
  </AppLayout>
);

/** The open drawer's dialog, once antd has mounted it. */
const dialog = () => screen.findByRole('dialog', { name: 'Personal settings' });

describe('side bar below the layout breakpoint', () => {
  beforeEach(() => setViewport(375));
  afterEach(() => {
    cleanup();
    setViewport(1024);
  });

  it('is a drawer behind a button that names it; no column squeezes the content', async () => {
    await renderWithCore(layout, { route: '/users/settings/profile' });
    expect(screen.queryByTestId('shell-sider')).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    const button = screen.getByRole('button', { name: 'Personal settings' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await act(async () => button.click());
    const drawer = await dialog();
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(drawer.getAttribute('aria-modal')).toBe('true');
    expect(drawer.querySelector('nav a')?.textContent).toBe('SSH keys');
  });

  it('closes on Escape', async () => {
    await renderWithCore(layout, { route: '/users/settings/profile' });
    const button = screen.getByRole('button', { name: 'Personal settings' });
    button.focus();
    await act(async () => button.click());
    const drawer = await dialog();
    // antd's lock takes the focus inside in a browser (the e2e responsive spec walks it by keyboard); happy-dom lays
    // nothing out, so its list of focusable elements is empty: the test puts the focus on a link itself.
    const link = drawer.querySelector('nav a') as HTMLAnchorElement;
    link.focus();
    await act(async () => void fireEvent.keyDown(link, { key: 'Escape' }));
    await waitFor(() => expect(button.getAttribute('aria-expanded')).toBe('false'));
    // The focus goes back to the button once the drawer's closing motion has ended, which happy-dom never plays:
    // tests/e2e/responsive.spec.ts checks it in Chromium.
  });

  it('closes when a link in it navigates', async () => {
    const view = await renderWithCore(layout, { route: '/users/settings/profile' });
    await act(async () => screen.getByRole('button', { name: 'Personal settings' }).click());
    const drawer = await dialog();
    await act(async () => (drawer.querySelector('nav a') as HTMLAnchorElement).click());
    expect(view.location()).toBe('/users/settings/ssh');
    expect(screen.getByRole('button', { name: 'Personal settings' }).getAttribute('aria-expanded')).toBe('false');
  });

  it('goes back to a column when the window grows past the breakpoint', async () => {
    await renderWithCore(layout, { route: '/users/settings/profile' });
    await act(async () => screen.getByRole('button', { name: 'Personal settings' }).click());
    await dialog();
    await act(async () => setViewport(1400));
    expect(screen.getByTestId('shell-sider').getAttribute('data-collapsed')).toBe('false');
    expect(screen.queryByTestId('sider-drawer-toggle')).toBeNull();
    expect(screen.getByTestId('sider-toggle')).toBeTruthy();
  });
});

describe('side bar at desktop widths', () => {
  afterEach(() => {
    cleanup();
    setViewport(1024);
  });

  it('is a column with the icon toggle, closed below 1280 px, no drawer', async () => {
    setViewport(1024);
    await renderWithCore(layout, { route: '/users/settings/profile' });
    expect(screen.getByTestId('shell-sider').getAttribute('data-collapsed')).toBe('true');
    expect(screen.queryByTestId('sider-drawer-toggle')).toBeNull();
    await act(async () => screen.getByTestId('sider-toggle').click());
    expect(screen.getByTestId('shell-sider').getAttribute('data-collapsed')).toBe('false');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
