import fs from 'node:fs';
import path from 'node:path';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import type { TableColumnsType as ColumnsType } from 'antd';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hydrateInTest } from '../../../tests/kit/hydration';
import { BrowserStateProvider } from './BrowserState';
import { NARROW_LAYOUT_QUERY } from './responsive';
import { ResponsiveTable, useInCard } from './ResponsiveTable';
import { setViewport } from '../../../tests/kit/web';

interface Row {
  id: string;
  name: string;
  created: string;
}
const rows: Row[] = [
  { id: 'a', name: 'first key', created: '2026-01-01' },
  { id: 'b', name: 'second key', created: '2026-02-01' },
];
const removed: string[] = [];
const columns: ColumnsType<Row> = [
  { key: 'name', title: 'Name', dataIndex: 'name', render: (n: string) => <strong>{n}</strong> },
  { key: 'created', title: 'Created', dataIndex: 'created' },
  {
    key: 'actions',
    title: 'Actions',
    render: (_, r) => (
      <button type="button" onClick={() => removed.push(r.id)}>
        Delete {r.name}
      </button>
    ),
  },
];
// In the provider the app puts above every page: it answers the window's width and whether React is hydrating.
const table = (
  <BrowserStateProvider>
    <ResponsiveTable<Row> rowKey="id" columns={columns} dataSource={rows} data-testid="card" />
  </BrowserStateProvider>
);

/** A cell that sizes itself by where it is (a card or a table row), as a cut name does. */
function Where() {
  return <em>{useInCard() ? 'in a card' : 'in a row'}</em>;
}
const placed = (
  <BrowserStateProvider>
    <ResponsiveTable<Row>
      rowKey="id"
      columns={[
        { key: 'name', title: 'Name', render: (_, r) => <span>{r.name}</span> },
        { key: 'where', title: 'Where', render: () => <Where /> },
      ]}
      dataSource={rows.slice(0, 1)}
      data-testid="card"
    />
  </BrowserStateProvider>
);

/** The service's HTML of `ui`, hydrated in this window: the container, and what React reported as a mismatch. */
async function hydrated(ui: React.ReactElement) {
  const html = renderToString(ui);
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.appendChild(container);
  const mismatches: unknown[] = [];
  const logged = vi.spyOn(console, 'error').mockImplementation((...args) => void mismatches.push(args));
  await hydrateInTest(container, ui, { onRecoverableError: (error) => void mismatches.push(error) });
  logged.mockRestore();
  return { html, container, mismatches };
}

/** The stylesheet that picks a variant while a page hydrates, in the page, as the build links it. */
function withSheet() {
  const style = document.createElement('style');
  style.textContent = fs.readFileSync(path.join(import.meta.dirname, 'ResponsiveTable.css'), 'utf8');
  document.head.appendChild(style);
  return () => style.remove();
}

describe('a table that adapts to the window', () => {
  afterEach(() => {
    cleanup();
    setViewport(1024);
  });

  it('is a table at desktop widths', () => {
    setViewport(1280);
    render(table);
    expect(screen.getAllByRole('row')).toHaveLength(3);
    expect(screen.queryByTestId('card')).toBeNull();
  });

  it('is a stack of cards below the breakpoint, each with the row’s cells, labels and the same actions', async () => {
    setViewport(375);
    render(table);
    expect(screen.queryByRole('table')).toBeNull();
    const cards = screen.getAllByTestId('card');
    expect(cards.map((c) => c.getAttribute('data-row-key'))).toEqual(['a', 'b']);
    const second = within(cards[1]);
    expect(second.getByText('second key').tagName).toBe('STRONG');
    expect(second.getByText('Created').tagName).toBe('DT');
    expect(second.getByText('2026-02-01').tagName).toBe('DD');
    expect(second.queryByText('Name')).toBeNull();
    await act(async () => second.getByRole('button', { name: 'Delete second key' }).click());
    expect(removed).toEqual(['b']);
  });

  it('follows the window across the breakpoint', async () => {
    setViewport(1280);
    render(table);
    await act(async () => setViewport(600));
    expect(screen.getAllByTestId('card')).toHaveLength(2);
    await act(async () => setViewport(1200));
    expect(screen.getAllByRole('row')).toHaveLength(3);
  });

  it('is given a cell that asks where it renders: a card or a table row', () => {
    setViewport(375);
    render(placed);
    expect(screen.getByTestId('card').textContent).toContain('in a card');
    cleanup();
    setViewport(1280);
    render(placed);
    expect(screen.getByRole('table').textContent).toContain('in a row');
  });
});

describe('a table the service renders (the window unknown there)', () => {
  afterEach(() => {
    cleanup();
    document.body.innerHTML = '';
    setViewport(1024);
  });

  it('holds both variants, each marked for the media query that hides it', () => {
    const html = renderToString(placed);
    const doc = document.createElement('div');
    doc.innerHTML = html;
    const wide = doc.querySelector('.responsive-table-wide');
    const narrow = doc.querySelector('.responsive-table-narrow');
    expect(wide?.querySelector('table')?.textContent).toContain('in a row');
    expect(narrow?.querySelector('[data-testid="card"]')?.textContent).toContain('in a card');
    expect(narrow?.querySelector('table')).toBeNull();
  });

  it('shows one of them by the window, at the layout breakpoint, out of the tab order and the accessibility tree', () => {
    const removeSheet = withSheet();
    try {
      const html = renderToString(table);
      const shown = (width: number) => {
        setViewport(width);
        const doc = document.createElement('div');
        doc.innerHTML = html;
        document.body.appendChild(doc);
        const display = (cls: string) => getComputedStyle(doc.querySelector(cls)!).display;
        const answer = [display('.responsive-table-wide'), display('.responsive-table-narrow')];
        doc.remove();
        return answer;
      };
      expect(shown(375)).toEqual(['none', 'block']);
      expect(shown(991)).toEqual(['none', 'block']);
      expect(shown(992)).toEqual(['block', 'none']);
      expect(shown(1280)).toEqual(['block', 'none']);
    } finally {
      removeSheet();
    }
  });

  it('uses the breakpoint the app uses (responsive.ts)', () => {
    const css = fs.readFileSync(path.join(import.meta.dirname, 'ResponsiveTable.css'), 'utf8').replace(/\s+/g, ' ');
    expect(css).toContain(`@media ${NARROW_LAYOUT_QUERY} { .responsive-table-wide { display: none; } }`);
    expect(css).toContain(`@media not all and ${NARROW_LAYOUT_QUERY} { .responsive-table-narrow { display: none; } }`);
  });

  for (const [width, variant] of [
    [375, 'cards'],
    [1280, 'table'],
  ] as const) {
    it(`hydrates without a mismatch at ${width} px, then keeps only the ${variant}`, async () => {
      setViewport(width);
      const { container, mismatches } = await hydrated(placed);
      expect(mismatches).toEqual([]);
      expect(container.querySelector('.responsive-table-wide, .responsive-table-narrow')).toBeNull();
      if (variant === 'cards') {
        expect(container.querySelector('table')).toBeNull();
        expect(within(container).getByTestId('card').textContent).toContain('in a card');
      } else {
        expect(within(container).queryByTestId('card')).toBeNull();
        expect(within(container).getByRole('table').textContent).toContain('in a row');
      }
    });
  }

  it('keeps the table it hydrated (not mounted again) when it is the one the window wants', async () => {
    setViewport(1280);
    const html = renderToString(table);
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.appendChild(container);
    const served = container.querySelector('table');
    await hydrateInTest(container, table);
    expect(container.querySelector('table')).toBe(served);
  });
});
