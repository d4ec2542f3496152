import { act, cleanup, render, screen, within } from '@testing-library/react';
import type { TableColumnsType as ColumnsType } from 'antd';
import { afterEach, describe, expect, it } from 'vitest';
import { ResponsiveTable } from './ResponsiveTable';

/** happy-dom's window: its matchMedia follows the viewport it is given. */
interface HappyWindow {
  happyDOM: { setViewport(viewport: { width: number; height: number }): void };
}
const setViewport = (width: number) => (window as unknown as HappyWindow).happyDOM.setViewport({ width, height: 800 });

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
const table = <ResponsiveTable<Row> rowKey="id" columns={columns} dataSource={rows} data-testid="card" />;

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
});
