import { render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { hydrateInTest } from '../../../tests/kit/hydration';
import { BrowserStateProvider, useInBrowser, useNarrowLayout } from './BrowserState';
import { setViewport } from '../../../tests/kit/web';

/** A component that reads both answers, counting its renders. */
function reader() {
  const counted = { renders: 0 };
  function Reader() {
    counted.renders += 1;
    return <p data-testid="state">{`in browser: ${useInBrowser()}, narrow: ${useNarrowLayout()}`}</p>;
  }
  const ui = (
    <BrowserStateProvider>
      <Reader />
    </BrowserStateProvider>
  );
  return { ui, counted };
}

describe('what only the browser knows', () => {
  it('is known at once in a page the browser renders itself', () => {
    setViewport(375);
    const { ui, counted } = reader();
    render(ui);
    expect(screen.getByTestId('state').textContent).toBe('in browser: true, narrow: true');
    expect(counted.renders).toBe(1);
  });

  it('is unknown on the service and while hydrating, then comes in one deferred render of the readers', async () => {
    setViewport(375);
    const { ui, counted } = reader();
    const html = renderToString(ui);
    expect(html).toContain('in browser: false, narrow: false');
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.appendChild(container);
    counted.renders = 0;
    await hydrateInTest(container, ui);
    expect(container.textContent).toBe('in browser: true, narrow: true');
    // Hydration, then the deferred render with the browser's values: no render of the readers in between, which
    // React would do at once, in one task with the hydration's commit, were each reader to ask the window itself.
    expect(counted.renders).toBe(2);
    container.remove();
  });

  it('follows the window across the breakpoint', async () => {
    setViewport(1280);
    const { ui } = reader();
    render(ui);
    expect(screen.getByTestId('state').textContent).toBe('in browser: true, narrow: false');
    setViewport(375);
    window.dispatchEvent(new Event('resize'));
    await screen.findByText('in browser: true, narrow: true');
  });
});
