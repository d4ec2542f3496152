import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { Redirect, RedirectListener } from './Redirect';

const app = (
  <MemoryRouter initialEntries={['/from']}>
    <Routes>
      <Route path="/from" element={<Redirect to="/to?next=%2Ffrom" />} />
      <Route path="/to" element={<p>arrived</p>} />
    </Routes>
  </MemoryRouter>
);

describe('Redirect', () => {
  it('goes to its target in the browser', async () => {
    render(app);
    expect(await screen.findByText('arrived')).toBeTruthy();
  });

  it('under a listener (the service rendering a first screen) reports the target and renders nothing', () => {
    const listener = vi.fn();
    const { container } = render(<RedirectListener.Provider value={listener}>{app}</RedirectListener.Provider>);
    expect(listener).toHaveBeenCalledWith('/to?next=%2Ffrom');
    expect(container.textContent).toBe('');
  });
});
