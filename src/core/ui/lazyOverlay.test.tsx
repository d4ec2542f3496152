import { render, screen } from '@testing-library/react';
import { startTransition } from 'react';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { lazyOverlay } from './lazyOverlay';

describe('lazyOverlay', () => {
  it('loads nothing until it first opens, then shows the component and keeps it mounted', async () => {
    let loads = 0;
    const Dialog = lazyOverlay<{ open: boolean; title: string }>(async () => {
      loads++;
      return ({ open, title }) => (
        <div role="dialog" hidden={!open}>
          {title}
        </div>
      );
    });
    const view = render(<Dialog open={false} title="Add" />);
    await new Promise((r) => setTimeout(r, 20));
    expect(loads).toBe(0);
    expect(screen.queryByRole('dialog')).toBeNull();
    view.rerender(<Dialog open title="Add" />);
    expect((await screen.findByRole('dialog')).textContent).toBe('Add');
    expect(loads).toBe(1);
    view.rerender(<Dialog open={false} title="Add" />);
    expect(screen.getByRole('dialog', { hidden: true }).hidden, 'closed, still mounted').toBe(true);
  });

  it('opens from a transition too (a router navigation)', async () => {
    const Dialog = lazyOverlay<{ open: boolean }>(async () => ({ open }) => (
      <div role="dialog" hidden={!open}>
        Edit
      </div>
    ));
    const view = render(<Dialog open={false} />);
    await act(async () => startTransition(() => view.rerender(<Dialog open />)));
    expect((await screen.findByRole('dialog')).textContent).toBe('Edit');
  });
});
