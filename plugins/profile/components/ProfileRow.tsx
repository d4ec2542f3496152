import type { ReactNode } from 'react';

/** Props of one row of the profile list. */
export interface ProfileRowProps {
  /** The row's label (a term of the definition list). */
  label: ReactNode;
  /** The current value. */
  children: ReactNode;
  /** Buttons acting on the row, shown after the value. */
  actions?: ReactNode;
  /** A short explanation under the value. */
  help?: ReactNode;
  /** Test hook naming the row. */
  testId: string;
}

/** One labelled row: label on the left, value and actions on the right, wrapping on narrow screens. */
export function ProfileRow({ label, children, actions, help, testId }: ProfileRowProps) {
  return (
    <div
      data-testid={testId}
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'flex-start',
        columnGap: 24,
        rowGap: 8,
        padding: '20px 0',
        borderBottom: '1px solid var(--ant-color-split)',
      }}
    >
      <dt style={{ flex: '0 0 140px', color: 'var(--ant-color-text)', fontWeight: 500, lineHeight: '32px' }}>
        {label}
      </dt>
      <dd style={{ flex: '1 1 320px', margin: 0, minWidth: 0 }}>
        <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 12, minHeight: 32 }}>
          <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>{children}</div>
          {actions && <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>{actions}</div>}
        </div>
        {help && <div style={{ marginTop: 4, color: 'var(--ant-color-text-secondary)', fontSize: 13 }}>{help}</div>}
      </dd>
    </div>
  );
}
