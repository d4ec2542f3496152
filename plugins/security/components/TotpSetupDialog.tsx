import { CopyOutlined } from '@ant-design/icons';
import { Button, Input, Modal, Typography, type InputRef } from 'antd';
import { observer } from 'mobx-react-lite';
import { useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { failureText } from '../../../src/core/stores/failure';
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from '../../../schemas/second-factor-limits';
import type { TwoFactorStore } from '../store';
import type { Toast } from './words';
import { copyText } from '../../../src/core/clipboard';

/** Props of the app's setup dialog; it shows while the store holds a waiting secret. */
export interface TotpSetupDialogProps {
  open: boolean;
  store: TwoFactorStore;
  /** The page's toasts. */
  toast: Toast;
  /** After it has closed (the page puts the keyboard back where it belongs). */
  afterClose?: () => void;
}

/** The secret in groups of four, as authenticator apps and password managers show it (easier to type and check). */
export function groupSecret(secret: string): string {
  return (secret.replace(/\s+/g, '').match(/.{1,4}/g) ?? []).join(' ');
}

/**
 * The service's QR code as an image: a `data:` URL of its SVG, so the browser draws it as a picture (no script runs
 * and nothing of it joins the page's markup, whatever the SVG held).
 */
export function svgImageSource(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** Only an `otpauth://` link is offered as a link (a phone opens its authenticator app with it). */
const isOtpauth = (uri: string) => /^otpauth:\/\/totp\//i.test(uri);

/** What the person typed, without the spaces some apps show in the middle of a code. */
const digitsOf = (value: string) => value.replace(/\s+/g, '');

/**
 * Setting up the authenticator app: the QR code to scan (or, on the phone itself, a link that opens the app), the
 * secret in text for typing it in (grouped, with a copy button), and the app's first code to confirm. A wrong code
 * says how to get a right one; the field keeps focus for the next try.
 */
export const TotpSetupDialog = observer(function TotpSetupDialog({
  open,
  store,
  toast,
  afterClose,
}: TotpSetupDialogProps) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const field = useRef<InputRef>(null);
  const setup = store.setup;
  // Kept while the dialog closes, so its content does not vanish during the animation.
  const [shown, setShown] = useState(setup);
  if (setup && setup !== shown) setShown(setup);

  useEffect(() => {
    if (!open) {
      setCode('');
      setProblem(null);
    }
  }, [open]);

  const submit = async () => {
    if (store.confirming) return;
    const digits = digitsOf(code);
    if (!digits) return fail(t('security.twoFactor.totp.codeRequired'));
    if (!new RegExp(`^[0-9]{${TOTP_DIGITS}}$`).test(digits))
      return fail(t('security.twoFactor.totp.codeFormat', { digits: TOTP_DIGITS }));
    setProblem(null);
    const r = await store.confirmTotp(digits);
    if (r.ok) void toast.success(t('security.twoFactor.totp.added'));
    else if (r.failure) fail(failureText(r.failure, t));
  };
  const fail = (text: string) => {
    setProblem(text);
    setCode('');
    field.current?.focus();
  };
  const copy = async () => {
    if (shown && (await copyText(shown.secret))) void toast.success(t('security.twoFactor.totp.secretCopied'));
    else void toast.error(t('security.twoFactor.copyFailed'));
  };

  return (
    <Modal
      open={open}
      title={<FormattedMessage id="security.twoFactor.totp.dialogTitle" />}
      onCancel={() => store.cancelTotp()}
      afterClose={afterClose}
      mask={{ closable: false }}
      width={520}
      data-testid="security-totp-dialog"
      footer={[
        <Button key="cancel" onClick={() => store.cancelTotp()}>
          <FormattedMessage id="security.cancel" />
        </Button>,
        <Button
          key="ok"
          type="primary"
          loading={store.confirming}
          onClick={() => void submit()}
          data-testid="security-totp-confirm"
        >
          <FormattedMessage id="security.twoFactor.totp.confirm" />
        </Button>,
      ]}
    >
      {shown && (
        <>
          <Typography.Paragraph>
            <strong>1. </strong>
            <FormattedMessage id="security.twoFactor.totp.step.scan" />
          </Typography.Paragraph>
          <div style={{ display: 'flex', justifyContent: 'center', marginBottom: 12 }}>
            {/* White around the code in the dark theme too: scanners want dark modules on a light ground. */}
            <img
              src={svgImageSource(shown.qr_svg)}
              alt={t('security.twoFactor.totp.qrAlt')}
              width={184}
              height={184}
              style={{ background: '#fff', padding: 8, borderRadius: 8, border: '1px solid #d9d9d9' }}
              data-testid="security-totp-qr"
            />
          </div>
          {isOtpauth(shown.uri) && (
            <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
              <FormattedMessage
                id="security.twoFactor.totp.openApp"
                values={{
                  link: (chunks) => (
                    <a key="open" href={shown.uri} data-testid="security-totp-open">
                      {chunks}
                    </a>
                  ),
                }}
              />
            </Typography.Paragraph>
          )}
          <Typography.Paragraph>
            <strong>2. </strong>
            <FormattedMessage id="security.twoFactor.totp.step.key" />
          </Typography.Paragraph>
          <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap', marginBottom: 4 }}>
            <Typography.Text
              code
              id="security-totp-secret"
              style={{ fontSize: 15, letterSpacing: 1, overflowWrap: 'anywhere', margin: 0, maxWidth: '100%', minWidth: 0 }}
              data-testid="security-totp-secret"
            >
              {groupSecret(shown.secret)}
            </Typography.Text>
            <Button
              size="small"
              icon={<CopyOutlined />}
              onClick={() => void copy()}
              aria-label={t('security.twoFactor.totp.copySecret')}
              data-testid="security-totp-copy"
            >
              <FormattedMessage id="security.twoFactor.copy" />
            </Button>
          </div>
          <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
            <FormattedMessage
              id="security.twoFactor.totp.keyDetails"
              values={{ digits: TOTP_DIGITS, seconds: TOTP_PERIOD_SECONDS }}
            />
          </Typography.Paragraph>
          {/* Enter in the field confirms; antd's Form stays out of the page's shared scripts (one field here). */}
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <label htmlFor="security-totp-code" style={{ display: 'block', marginBottom: 8 }}>
              <strong>3. </strong>
              <FormattedMessage id="security.twoFactor.totp.step.code" />
            </label>
            <Input
              id="security-totp-code"
              ref={field}
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/[^0-9 ]/g, ''))}
              inputMode="numeric"
              autoComplete="one-time-code"
              // A code shown as "123 456" may be typed with its space.
              maxLength={TOTP_DIGITS + 1}
              placeholder={'0'.repeat(TOTP_DIGITS)}
              status={problem ? 'error' : undefined}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? 'security-totp-problem' : undefined}
              style={{ maxWidth: 200, fontSize: 18, letterSpacing: 4, fontVariantNumeric: 'tabular-nums' }}
              data-testid="security-totp-code"
            />
            {problem && (
              <Typography.Paragraph
                type="danger"
                id="security-totp-problem"
                role="alert"
                style={{ margin: '4px 0 0' }}
                data-testid="security-totp-problem"
              >
                {problem}
              </Typography.Paragraph>
            )}
          </form>
        </>
      )}
    </Modal>
  );
});
