import { render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { hydrateInTest } from '../../../tests/kit/hydration';
import { formatRelativeTime } from '../i18n/format';
import { BrowserStateProvider } from './BrowserState';
import { RelativeTime } from './RelativeTime';

const at = '2026-03-01T23:30:00Z';
const later = Date.parse(at) + 3 * 60_000;

/** "3 minutes ago" at `now`, with the full time as its tooltip. */
const Ago = ({ now }: { now: number }) => (
  <RelativeTime
    value={at}
    now={now}
    format={(n) => formatRelativeTime(at, 'en_US', n)}
    title={() => 'full time'}
    data-testid="ago"
  />
);

describe('RelativeTime', () => {
  it('renders the text at once in a page the browser renders', () => {
    render(<Ago now={later} />);
    const time = screen.getByTestId('ago');
    expect(time.textContent).toBe('3 minutes ago');
    expect(time.getAttribute('datetime')).toBe('2026-03-01T23:30:00.000Z');
    expect(time.getAttribute('title')).toBe('full time');
    expect(time.style.visibility).toBe('');
  });

  it('is hidden UTC text on the service, whatever its clock, then the text after hydration, without a mismatch', async () => {
    // The service's clock is not the browser's: what it renders must not depend on it.
    // As in the app: under the provider that says whether React is hydrating.
    const html = renderToString(
      <BrowserStateProvider>
        <Ago now={later + 3_600_000} />
      </BrowserStateProvider>,
    );
    expect(html).toContain('2026-03-01 23:30');
    expect(html).toContain('visibility:hidden');
    expect(html).not.toContain('minutes');
    expect(html).not.toContain('title=');
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.appendChild(container);
    const mismatch = vi.fn();
    const ui = (
      <BrowserStateProvider>
        <Ago now={later} />
      </BrowserStateProvider>
    );
    await hydrateInTest(container, ui, { onRecoverableError: mismatch });
    expect(mismatch).not.toHaveBeenCalled();
    const time = container.querySelector('time')!;
    expect(time.textContent).toBe('3 minutes ago');
    expect(time.getAttribute('title')).toBe('full time');
    expect(time.style.visibility).toBe('');
    container.remove();
  });

  it('shows the dash for no date', () => {
    const { container } = render(<RelativeTime value={null} now={later} format={() => 'never'} />);
    expect(container.textContent).toBe('-');
  });
});
