import { cleanup, screen } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import { describe, expect, it } from 'vitest';
import { renderWithCore } from '../../tests/kit/web';
import { edition } from '../core/edition';
import NotFoundPage from './NotFoundPage';

/** The not-found page under antd's theme of a brand colour (the app's theme makes it the primary colour). */
const inTheme = (color: string) => (
  <ConfigProvider theme={{ token: { colorPrimary: color } }}>
    <NotFoundPage />
  </ConfigProvider>
);

/** The colours the drawing of the page uses for its lines, its status and its sign. */
function drawingColours(): string[] {
  const svg = screen.getByTestId('error-illustration');
  return [...svg.querySelectorAll('text, rect, line, g, polyline')]
    .flatMap((el) => [el.getAttribute('fill'), el.getAttribute('stroke')])
    .filter((c): c is string => !!c);
}

describe('the not-found page', () => {
  it('shows a signed-in member the page inside the frame: top bar with the account, heading, way home', async () => {
    await renderWithCore(inTheme(edition.brand.color), { route: '/users/nope' });
    const bar = document.querySelector('header.shell-top-bar');
    expect(bar).toBeTruthy();
    expect(bar!.textContent).toContain('Alice');
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(screen.getByTestId('error-page').getAttribute('data-status')).toBe('404');
    expect(screen.getByRole('link', { name: /back/i }).getAttribute('href')).toBe('/users/settings');
  });

  it('shows a visitor the same page under the edition’s top bar, without account controls', async () => {
    await renderWithCore(inTheme(edition.brand.color), { route: '/docs/', user: null });
    const bar = document.querySelector('header.shell-top-bar');
    expect(bar).toBeTruthy();
    expect(bar!.textContent).not.toContain('Alice');
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
  });

  it('draws its illustration in the brand colour (the orange of aliyun too), never antd’s fixed blue', async () => {
    await renderWithCore(inTheme(edition.brand.color));
    expect(drawingColours().map((c) => c.toLowerCase())).toContain(edition.brand.color.toLowerCase());
    cleanup();
    await renderWithCore(inTheme('#C75000'));
    const colours = drawingColours().map((c) => c.toLowerCase());
    expect(colours).toContain('#c75000');
    expect(colours).not.toContain('#1677ff');
    expect(screen.getByTestId('error-illustration').getAttribute('aria-hidden')).toBe('true');
  });
});
