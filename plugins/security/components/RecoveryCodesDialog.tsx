import { CopyOutlined, DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import { Alert, Button, Checkbox, Modal, Typography } from 'antd';
import { observer } from 'mobx-react-lite';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { edition } from '../../../src/core/edition';
import { formatDateTime } from '../../../src/core/i18n/format';
import { useStores } from '../../../src/core/stores/root';
import type { TwoFactorStore } from '../store';
import type { Toast, Translate } from './words';
import { copyText } from '../../../src/core/clipboard';

/** Props of the one-time display of recovery codes; it shows while the store holds codes. */
export interface RecoveryCodesDialogProps {
  open: boolean;
  store: TwoFactorStore;
  /** The page's toasts. */
  toast: Toast;
  /** After it has closed (the page puts the keyboard back where it belongs). */
  afterClose?: () => void;
}

/** What the codes are saved as (copied, downloaded, printed): the product, the account, the site, the time, the codes. */
export interface CodesSheet {
  product: string;
  username: string;
  site: string;
  /** When they were made, as the reader's clock says it. */
  made: string;
  codes: readonly string[];
}

/** The codes as a plain text document, in the reader's language; one code a line so each is easy to find. */
export function codesText(sheet: CodesSheet, t: Translate): string {
  return [
    t('security.twoFactor.codes.file.title', { product: sheet.product }),
    t('security.twoFactor.codes.file.account', { username: sheet.username, site: sheet.site }),
    t('security.twoFactor.codes.file.made', { date: sheet.made }),
    '',
    ...sheet.codes,
    '',
    t('security.twoFactor.codes.file.hint'),
    '',
  ].join('\n');
}

/** A file name that tells this site's codes from another's: `<host>-recovery-codes.txt`. */
export function codesFileName(host: string): string {
  const safe = host.replace(/[^A-Za-z0-9.-]+/g, '-').replace(/^-+|-+$/g, '');
  return `${safe || 'account'}-recovery-codes.txt`;
}

/** Saves text as a file through the browser's download. */
function download(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Prints text alone (not the page around the dialog): a hidden frame holding it as preformatted text, built through
 * the DOM (no markup is parsed), printed, then removed.
 */
function printText(text: string, title: string): void {
  const frame = document.createElement('iframe');
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  frame.style.position = 'fixed';
  frame.style.width = '0';
  frame.style.height = '0';
  frame.style.border = '0';
  document.body.appendChild(frame);
  const win = frame.contentWindow;
  const doc = frame.contentDocument;
  if (!win || !doc) return frame.remove();
  doc.title = title;
  const pre = doc.createElement('pre');
  pre.textContent = text;
  doc.body.appendChild(pre);
  const remove = () => setTimeout(() => frame.remove(), 0);
  win.addEventListener('afterprint', remove, { once: true });
  win.focus();
  win.print();
  // Browsers whose print() returns at once remove it after the print dialog closes; others after a while.
  setTimeout(() => frame.isConnected && frame.remove(), 60_000);
}

/**
 * The account's recovery codes, shown once (after the first factor, or made again): copy, download as a .txt, print;
 * it closes only once its owner says the codes are saved (no ✕, no Esc, no click outside).
 */
export const RecoveryCodesDialog = observer(function RecoveryCodesDialog({
  open,
  store,
  toast,
  afterClose,
}: RecoveryCodesDialogProps) {
  const intl = useIntl();
  const t: Translate = (id, values) => intl.formatMessage({ id }, values);
  const { session } = useStores();
  const [saved, setSaved] = useState(false);
  const codes = store.codes;
  // Kept while the dialog closes, so its content does not vanish during the animation.
  const [shown, setShown] = useState(codes);
  const [made, setMade] = useState(() => formatDateTime(Date.now()));
  if (codes && codes !== shown) {
    setShown(codes);
    setSaved(false);
    setMade(formatDateTime(Date.now()));
  }
  const list = shown ?? [];
  const sheet = (): string =>
    codesText(
      {
        product: edition.names.product[session.locale],
        username: session.user?.username ?? '',
        site: window.location.host,
        made,
        codes: list,
      },
      t,
    );

  const copy = async () => {
    if (await copyText(sheet())) void toast.success(t('security.twoFactor.codes.copied'));
    else void toast.error(t('security.twoFactor.copyFailed'));
  };

  return (
    <Modal
      open={open}
      title={<FormattedMessage id="security.twoFactor.codes.dialogTitle" />}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      afterClose={afterClose}
      width={560}
      data-testid="security-codes-dialog"
      footer={
        <Button type="primary" disabled={!saved} onClick={() => store.codesSaved()} data-testid="security-codes-done">
          <FormattedMessage id="security.twoFactor.codes.done" />
        </Button>
      }
    >
      <Alert type="warning" showIcon title={t('security.twoFactor.codes.once')} style={{ marginBottom: 12 }} />
      <Typography.Paragraph>
        <FormattedMessage id="security.twoFactor.codes.explain" />
      </Typography.Paragraph>
      <ol
        aria-label={t('security.twoFactor.codes.title')}
        data-testid="security-codes"
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fill, minmax(21ch, 1fr))',
          gap: '6px 16px',
          listStyle: 'none',
          padding: '12px 16px',
          margin: '0 0 12px',
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
          fontSize: 15,
          borderRadius: 8,
          background: 'var(--ant-color-fill-quaternary, rgba(0, 0, 0, 0.02))',
          border: '1px solid var(--ant-color-border-secondary, #f0f0f0)',
        }}
      >
        {list.map((code) => (
          <li key={code} data-testid="security-code" style={{ whiteSpace: 'nowrap' }}>
            {code}
          </li>
        ))}
      </ol>
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', marginBottom: 16 }}>
        <Button icon={<CopyOutlined />} onClick={() => void copy()} data-testid="security-codes-copy">
          <FormattedMessage id="security.twoFactor.copy" />
        </Button>
        <Button
          icon={<DownloadOutlined />}
          onClick={() => download(sheet(), codesFileName(window.location.hostname))}
          data-testid="security-codes-download"
        >
          <FormattedMessage id="security.twoFactor.codes.download" />
        </Button>
        <Button
          icon={<PrinterOutlined />}
          onClick={() => printText(sheet(), t('security.twoFactor.codes.title'))}
          data-testid="security-codes-print"
        >
          <FormattedMessage id="security.twoFactor.codes.print" />
        </Button>
      </div>
      <Checkbox checked={saved} onChange={(e) => setSaved(e.target.checked)} data-testid="security-codes-saved">
        <FormattedMessage id="security.twoFactor.codes.saved" />
      </Checkbox>
    </Modal>
  );
});
