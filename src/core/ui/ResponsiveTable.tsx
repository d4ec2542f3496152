import { Card, Pagination, Spin, Table } from 'antd';
import type { TableColumnType as ColumnType, TableProps } from 'antd';
import { createContext, useContext, type Key, type ReactNode } from 'react';
import { useInBrowser, useNarrowLayout } from './BrowserState';

/** Props of a table that turns into stacked cards on a narrow window: antd's Table props, and where the cards go. */
export interface ResponsiveTableProps<T> extends TableProps<T> {
  /** The column whose cell heads each card (default the first). */
  cardTitleKey?: Key;
  /** The column whose cell ends each card: the row's actions (default `actions`). */
  cardActionsKey?: Key;
  /** Marks each card (and the table's rows keep theirs), for tests. */
  'data-testid'?: string;
}

/** A cell as the table renders it: the column's `render` of the row's `dataIndex` value, or that value. */
function cellOf<T>(column: ColumnType<T>, record: T, index: number): ReactNode {
  const { dataIndex } = column;
  const value =
    typeof dataIndex === 'string' || typeof dataIndex === 'number'
      ? (record as Record<string | number, unknown>)[dataIndex]
      : undefined;
  return (column.render ? column.render(value, record, index) : value) as ReactNode;
}

const keyOf = <T,>(column: ColumnType<T>, i: number): Key =>
  column.key ?? (typeof column.dataIndex === 'string' ? column.dataIndex : i);

/**
 * Class names of ResponsiveTable.css (part of the page's own sheet: src/app/global.css imports it): the variant the
 * window's width hides while the page hydrates.
 */
const HIDDEN_WHEN_NARROW = 'responsive-table-wide';
const HIDDEN_WHEN_WIDE = 'responsive-table-narrow';

const InCard = createContext(false);

/**
 * Whether a cell renders in a card rather than in a table row: a cell that sizes itself (a name cut at a column's
 * width) asks where it is, not how wide the window is, so both variants are right while a page hydrates.
 */
export function useInCard(): boolean {
  return useContext(InCard);
}

/**
 * antd's Table on a wide window; below the layout breakpoint the same rows as a stack of cards, built from the same
 * columns (so a card shows what the row shows, with the same actions): the title column on top, the others as
 * label/value pairs, the actions column at the bottom; the table's pagination under them.
 *
 * Safe to render on the service: there (and while React hydrates what it rendered) the window is unknown, so both
 * variants are in the page and a media query at the same breakpoint (ResponsiveTable.css) shows one; once in the
 * browser only the matching one is rendered, and it follows the window. The table keeps its place in the tree either
 * way, so hydration does not mount it again.
 */
export function ResponsiveTable<T extends object>(props: ResponsiveTableProps<T>) {
  const { cardTitleKey, cardActionsKey = 'actions', 'data-testid': testId, ...table } = props;
  const inBrowser = useInBrowser();
  const narrow = useNarrowLayout();
  return (
    <>
      {(!inBrowser || !narrow) && (
        <div className={inBrowser ? undefined : HIDDEN_WHEN_NARROW}>
          <Table<T> {...table} />
        </div>
      )}
      {(!inBrowser || narrow) && (
        <div className={inBrowser ? undefined : HIDDEN_WHEN_WIDE}>
          <InCard.Provider value={true}>
            <Cards<T> table={table} cardTitleKey={cardTitleKey} cardActionsKey={cardActionsKey} testId={testId} />
          </InCard.Provider>
        </div>
      )}
    </>
  );
}

/** The rows as a stack of cards, with the table's pagination under them. */
function Cards<T extends object>({
  table,
  cardTitleKey,
  cardActionsKey,
  testId,
}: {
  table: TableProps<T>;
  cardTitleKey?: Key;
  cardActionsKey: Key;
  testId?: string;
}) {
  const columns = (table.columns ?? []).filter((c): c is ColumnType<T> => !('children' in c));
  const keyed = columns.map((c, i) => [keyOf(c, i), c] as const);
  const titleKey = cardTitleKey ?? keyed[0]?.[0];
  const title = keyed.find(([k]) => k === titleKey)?.[1];
  const actions = keyed.find(([k]) => k === cardActionsKey)?.[1];
  const fields = keyed.filter(([k]) => k !== titleKey && k !== cardActionsKey);
  const rows = (table.dataSource ?? []) as readonly T[];
  const rowKey = (record: T, i: number): Key =>
    typeof table.rowKey === 'function'
      ? table.rowKey(record, i)
      : ((record as Record<string, unknown>)[(table.rowKey as string | undefined) ?? 'key'] as Key);
  const loading = typeof table.loading === 'object' ? !!table.loading.spinning : !!table.loading;
  const pagination = table.pagination;

  return (
    <Spin spinning={loading}>
      <div style={table.style}>
        {rows.length === 0 ? (
          !loading && (table.locale?.emptyText as ReactNode)
        ) : (
          <ul style={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 12 }}>
            {rows.map((record, i) => (
              <li key={rowKey(record, i)} data-row-key={rowKey(record, i)} data-testid={testId} style={{ minWidth: 0 }}>
                <Card size="small" styles={{ body: { display: 'grid', gap: 8 } }}>
                  {title && <div style={{ minWidth: 0 }}>{cellOf(title, record, i)}</div>}
                  <dl
                    style={{
                      display: 'grid',
                      gridTemplateColumns: 'minmax(auto, 40%) minmax(0, 1fr)',
                      gap: '4px 12px',
                      margin: 0,
                    }}
                  >
                    {fields.map(([k, c]) => (
                      <div key={k} style={{ display: 'contents' }}>
                        <dt style={{ color: 'var(--ant-color-text-secondary)' }}>{c.title as ReactNode}</dt>
                        <dd style={{ margin: 0, minWidth: 0, overflowWrap: 'anywhere' }}>{cellOf(c, record, i)}</dd>
                      </div>
                    ))}
                  </dl>
                  {actions && <div style={{ marginInlineStart: -7 }}>{cellOf(actions, record, i)}</div>}
                </Card>
              </li>
            ))}
          </ul>
        )}
        {pagination && (
          <Pagination
            {...pagination}
            size="small"
            simple
            showSizeChanger={false}
            align="center"
            style={{ marginTop: 16 }}
          />
        )}
      </div>
    </Spin>
  );
}
