import { render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { hydrateInTest } from '../../../tests/kit/hydration';
import { formatDateTime } from '../i18n/format';
import { BrowserStateProvider } from './BrowserState';
import { LocalTime } from './LocalTime';

const at = '2026-03-01T23:30:00Z';

describe('LocalTime', () => {
  it('renders the local time at once in a page the browser renders', () => {
    render(<LocalTime value={at} />);
    const time = screen.getByText(formatDateTime(at));
    expect(time.getAttribute('datetime')).toBe('2026-03-01T23:30:00.000Z');
    expect(time.style.visibility).toBe('');
  });

  it('is hidden UTC text on the service, then the local time after hydration, without a mismatch', async () => {
    // As in the app: under the provider that says whether React is hydrating.
    const ui = (
      <BrowserStateProvider>
        <LocalTime value={at} />
      </BrowserStateProvider>
    );
    const html = renderToString(ui);
    expect(html).toContain('2026-03-01 23:30');
    expect(html).toContain('visibility:hidden');
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.appendChild(container);
    const mismatch = vi.fn();
    await hydrateInTest(container, ui, { onRecoverableError: mismatch });
    expect(mismatch).not.toHaveBeenCalled();
    expect(container.textContent).toBe(formatDateTime(at));
    expect(container.querySelector('time')!.style.visibility).toBe('');
  });

  it('shows the dash for no date', () => {
    const { container } = render(<LocalTime value={null} />);
    expect(container.textContent).toBe('-');
  });
});
