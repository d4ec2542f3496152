import { FormattedMessage } from 'react-intl';

/** 'Sorry, the page you visited is abnormal' with a button that reloads; plain HTML so it renders even when chunks fail. */
export function FullPageError() {
  return (
    <main role="alert" style={{ padding: '96px 24px', textAlign: 'center', fontFamily: 'system-ui, sans-serif' }}>
      <h1 style={{ fontSize: 22, fontWeight: 500, margin: '0 0 8px' }}>
        <FormattedMessage id="shell.error.fullPage.title" />
      </h1>
      <p style={{ color: 'var(--ant-color-text-secondary)', margin: '0 0 24px' }}>
        <FormattedMessage id="shell.error.fullPage.hint" />
      </p>
      <button
        type="button"
        onClick={() => window.location.reload()}
        style={{
          font: 'inherit',
          padding: '6px 16px',
          borderRadius: 6,
          border: '1px solid var(--ant-color-border)',
          cursor: 'pointer',
        }}
      >
        <FormattedMessage id="shell.error.fullPage.reload" />
      </button>
    </main>
  );
}
