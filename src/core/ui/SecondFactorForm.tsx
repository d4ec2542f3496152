import { KeyOutlined } from '@ant-design/icons';
import { Button, Form, Input, type InputRef } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { FactorMethod, FactorProof } from '../../../schemas/second-factor';
import { RECOVERY_CODE_INPUT_PATTERN, TOTP_CODE_PATTERN, TOTP_DIGITS } from '../../../schemas/second-factor-limits';

/** A typed answer to a second-factor challenge (a passkey's goes through `onPasskey`). */
export type FactorCodeProof = Extract<FactorProof, { method: 'totp' | 'recovery' }>;

/** Props of the second-factor form. */
export interface SecondFactorFormProps {
  /** What the account can answer with (the challenge's `methods`); the form opens on the app's code when it has one. */
  methods: readonly FactorMethod[];
  /** A typed code is being checked: the submit button spins, the field is kept. */
  submitting: boolean;
  /** The passkey prompt or its check is under way: its button spins. */
  passkeyPending: boolean;
  /** Receives a well-formed code of the app (6 digits) or a recovery code, trimmed. */
  onCode: (proof: FactorCodeProof) => void;
  /** "Use a passkey or security key": the page asks the service for options and the browser for the assertion. */
  onPasskey: () => void;
  /** Bumped after a refused code: the field empties for the next try (a code of the app auto-submits at 6 digits). */
  resetKey?: number;
  /** The member chose another kind of code: what the page said about the last one no longer applies. */
  onSwitch?: () => void;
  /** The submit button's text; "Verify" by default. */
  submitLabel?: ReactNode;
  /** Under the form, e.g. the sign-in page's "Back". */
  footer?: ReactNode;
}

/** The field the form shows: the app's code, a recovery code, or none (a passkey only). */
type Mode = 'totp' | 'recovery' | 'webauthn';

const firstMode = (methods: readonly FactorMethod[]): Mode =>
  methods.includes('totp') ? 'totp' : methods.includes('webauthn') ? 'webauthn' : 'recovery';

/** Longest recovery code as it may be typed (RECOVERY_CODE_INPUT_PATTERN's upper bound: groups with separators). */
const RECOVERY_CODE_INPUT_MAX = 24;
const TOTP = new RegExp(TOTP_CODE_PATTERN);
const RECOVERY = new RegExp(RECOVERY_CODE_INPUT_PATTERN);

/** Keeps only digits, at most a code's length (typed, pasted as "123 456", or filled in from an SMS-like source). */
const digitsOnly = (v: unknown) =>
  String(v ?? '')
    .replace(/\D/g, '')
    .slice(0, TOTP_DIGITS);

/** A link-styled button lined up with the form's edge. */
export const SECOND_FACTOR_LINK_STYLE = { paddingInline: 0 } as const;
const LINK = SECOND_FACTOR_LINK_STYLE;

const HINT_IDS: Record<Mode, string> = {
  totp: 'core.secondFactor.totpHint',
  recovery: 'core.secondFactor.recoveryHint',
  webauthn: 'core.secondFactor.passkeyHint',
};

/**
 * The second factor's step, wherever one is asked (the sign-in's second step, password recovery): the authenticator
 * app's 6-digit code (sent as soon as six digits are in), "Use a passkey or security key" when the account has one,
 * and a recovery code instead; keyboard-only and screen-reader friendly (labelled field, hint tied to it, focus kept
 * on the field when the kind of code changes). The page owns the calls and shows their failures above the form.
 */
export function SecondFactorForm({
  methods,
  submitting,
  passkeyPending,
  onCode,
  onPasskey,
  resetKey,
  onSwitch,
  submitLabel,
  footer,
}: SecondFactorFormProps) {
  const intl = useIntl();
  const [form] = Form.useForm<{ code: string }>();
  const [mode, setMode] = useState<Mode>(() => firstMode(methods));
  const field = useRef<InputRef>(null);
  const passkeyButton = useRef<HTMLButtonElement>(null);
  const switched = useRef(false);
  const busy = submitting || passkeyPending;

  useEffect(() => {
    // Emptied in place (a reset would mount a new input, and the keyboard's focus would be lost with the old one).
    if (resetKey) form.setFieldValue('code', '');
  }, [resetKey, form]);

  useEffect(() => {
    // After the first paint, not in it; then whenever the kind of code changes, so a keyboard goes on typing. The
    // painted page carries `autofocus` itself (the browser focuses the field before the app is there).
    const active = document.activeElement;
    if (!switched.current && active && active !== document.body) return;
    if (mode === 'webauthn') passkeyButton.current?.focus();
    else field.current?.focus();
  }, [mode]);

  const switchTo = (next: Mode) => {
    switched.current = true;
    form.resetFields();
    setMode(next);
    onSwitch?.();
  };

  const submit = ({ code }: { code: string }) => {
    if (busy || mode === 'webauthn') return;
    onCode({ method: mode, code: mode === 'totp' ? code : code.trim() });
  };

  const required = (id: string) => ({ required: true, message: intl.formatMessage({ id }) });
  const onServer = typeof window === 'undefined';
  const passkey = methods.includes('webauthn') && (
    <Button
      ref={passkeyButton}
      block
      type={mode === 'webauthn' ? 'primary' : 'default'}
      icon={<KeyOutlined aria-hidden />}
      loading={passkeyPending}
      disabled={submitting}
      autoFocus={mode === 'webauthn' && onServer}
      onClick={onPasskey}
      data-testid="second-factor-passkey"
    >
      <FormattedMessage id="core.secondFactor.usePasskey" />
    </Button>
  );
  const switches: ReactNode[] = [];
  if (mode !== 'recovery')
    switches.push(
      <Button key="recovery" type="link" size="small" style={LINK} onClick={() => switchTo('recovery')}>
        <FormattedMessage id="core.secondFactor.useRecoveryCode" />
      </Button>,
    );
  if (mode === 'recovery' && methods.includes('totp'))
    switches.push(
      <Button key="totp" type="link" size="small" style={LINK} onClick={() => switchTo('totp')}>
        <FormattedMessage id="core.secondFactor.useApp" />
      </Button>,
    );

  return (
    <Form
      form={form}
      name="second_factor"
      layout="vertical"
      requiredMark={false}
      onFinish={submit}
      onValuesChange={(changed: { code?: string }) => {
        // Six digits are the whole answer: no extra key press (a pasted or filled-in code goes at once).
        if (mode === 'totp' && !busy && TOTP.test(changed.code ?? '')) form.submit();
      }}
    >
      {mode === 'webauthn' ? (
        <p>
          <FormattedMessage id={HINT_IDS.webauthn} />
        </p>
      ) : (
        <Form.Item
          // A new field per kind of code: its label, rules and input attributes all change.
          key={mode}
          name="code"
          label={
            <FormattedMessage id={mode === 'totp' ? 'core.secondFactor.code' : 'core.secondFactor.recoveryCode'} />
          }
          extra={<FormattedMessage id={HINT_IDS[mode]} />}
          normalize={mode === 'totp' ? digitsOnly : undefined}
          validateTrigger="onSubmit"
          rules={
            mode === 'totp'
              ? [
                  required('core.secondFactor.codeRequired'),
                  { pattern: TOTP, message: intl.formatMessage({ id: 'core.secondFactor.codeInvalid' }) },
                ]
              : [
                  required('core.secondFactor.recoveryCodeRequired'),
                  { pattern: RECOVERY, message: intl.formatMessage({ id: 'core.secondFactor.recoveryCodeInvalid' }) },
                ]
          }
        >
          {mode === 'totp' ? (
            <Input
              ref={field}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={TOTP_DIGITS}
              autoFocus={onServer}
              placeholder="000000"
              style={{ letterSpacing: '0.2em' }}
            />
          ) : (
            <Input
              ref={field}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={RECOVERY_CODE_INPUT_MAX}
              placeholder="xxxx-xxxx-xxxx-xxxx"
            />
          )}
        </Form.Item>
      )}
      {mode !== 'webauthn' && (
        <Button type="primary" htmlType="submit" block loading={submitting} disabled={passkeyPending}>
          {submitLabel ?? <FormattedMessage id="core.secondFactor.verify" />}
        </Button>
      )}
      {passkey && <div style={{ marginTop: mode === 'webauthn' ? 0 : 12 }}>{passkey}</div>}
      <div style={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: 8, marginTop: 12 }}>
        {switches}
        {footer}
      </div>
    </Form>
  );
}
