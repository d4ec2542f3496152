import type { message } from 'antd';
import type { ReactNode } from 'react';
import { LocalTime } from '../../../src/core/ui/LocalTime';
import type { Browser, FailureReason, HistoryEntry, HistoryGroup, HistoryKind } from '../contract';
import { HISTORY_GROUPS } from '../limits';
import { RECOVERY_CODE_COUNT } from '../../../schemas/second-factor-limits';
import type { CredentialRefusal } from '../../../schemas/credential-kinds';

/** Translates one of the page's message ids, with values (`intl.formatMessage`). */
export type Translate = (id: string, values?: Record<string, string | number>) => string;

/** The page's toasts (antd's `message.useMessage()` instance), shared by its parts. */
export type Toast = ReturnType<typeof message.useMessage>[0];

/** A sentence of the page: a message id and its values, rendered with `<FormattedMessage>`. */
export interface Sentence {
  id: string;
  values: Record<string, ReactNode>;
}

/** The filter's groups, in the contract's order. */
export const GROUPS = HISTORY_GROUPS;

/** Each group's name in the filter. */
export const GROUP_IDS: Readonly<Record<HistoryGroup, string>> = {
  'sign-in': 'security.history.group.signIn',
  lock: 'security.history.group.lock',
  password: 'security.history.group.password',
  email: 'security.history.group.email',
  device: 'security.history.group.device',
  credential: 'security.history.group.credential',
  session: 'security.history.group.session',
  'second-factor': 'security.history.group.secondFactor',
};

/** Sign-in (and proof) methods by the id the service records (a provider by its id); another id is shown as it is. */
const METHOD_IDS: Readonly<Record<string, string>> = {
  password: 'security.method.password',
  ldap: 'security.method.ldap',
  ad: 'security.method.ad',
  // A proof (re-authentication) with the directory's password names no kind.
  directory: 'security.method.directory',
  dingtalk: 'security.method.dingtalk',
  lark: 'security.method.lark',
  feishu: 'security.method.lark',
  wecom: 'security.method.wecom',
  unknown: 'security.method.unknown',
};

/** How a session or an event was signed in, in the reader's language ("Password", "LDAP", "DingTalk"…). */
export function methodText(method: string | undefined, t: Translate): string {
  const id = METHOD_IDS[method ?? 'unknown'];
  return id ? t(id) : (method ?? t('security.method.unknown'));
}

/** Why a sign-in or a proof failed, as a phrase. */
const REASON_IDS: Readonly<Record<FailureReason, string>> = {
  'wrong-password': 'security.reason.wrongPassword',
  locked: 'security.reason.locked',
  'slider-failed': 'security.reason.sliderFailed',
  'directory-refused': 'security.reason.directoryRefused',
  'third-party-refused': 'security.reason.thirdPartyRefused',
  'wrong-second-factor': 'security.reason.wrongSecondFactor',
};

/** A second factor by the id the service records (`totp`, `webauthn`, `recovery`), for the sign-in's sentence. */
const FACTOR_IDS: Readonly<Record<string, string>> = {
  totp: 'security.factor.totp',
  webauthn: 'security.factor.webauthn',
  recovery: 'security.factor.recovery',
};

/** A browser as the page names it: "Chrome 131 on Windows", "Firefox", "Unknown browser on Linux"… */
export function browserText(browser: Browser | null, t: Translate): string {
  const name = browser?.name
    ? `${browser.name}${browser.version ? ` ${browser.version}` : ''}`
    : t('security.browser.unknown');
  return browser?.os ? t('security.browser.onOs', { browser: name, os: browser.os }) : name;
}

/** A credential's own sentence per kind, created and deleted; another kind is named generically. */
const CREDENTIAL_IDS: Readonly<Record<string, { created: string; deleted: string }>> = {
  token: { created: 'security.history.kind.tokenCreated', deleted: 'security.history.kind.tokenDeleted' },
  'ssh-key': { created: 'security.history.kind.sshKeyAdded', deleted: 'security.history.kind.sshKeyDeleted' },
  'packages-password': {
    created: 'security.history.kind.packagesPasswordReset',
    deleted: 'security.history.kind.packagesPasswordRevoked',
  },
};
const OTHER_CREDENTIAL = {
  created: 'security.history.kind.credentialCreated',
  deleted: 'security.history.kind.credentialDeleted',
};

/** How a password was changed, by `how`. */
const PASSWORD_IDS: Readonly<Record<string, string>> = {
  settings: 'security.history.kind.passwordChangedSettings',
  recovery: 'security.history.kind.passwordChangedRecovery',
  'first-sign-in': 'security.history.kind.passwordChangedFirst',
  admin: 'security.history.kind.passwordChangedAdmin',
};

/** Who ended sessions, by `by`. */
const ENDED_IDS: Readonly<Record<string, string>> = {
  member: 'security.history.kind.sessionEndedMember',
  'not-me': 'security.history.kind.sessionEndedNotMe',
  admin: 'security.history.kind.sessionEndedAdmin',
  time: 'security.history.kind.sessionEndedTime',
};

/** A credential's kind as a refused use names it; another kind is named generically. */
const CREDENTIAL_KIND_IDS: Readonly<Record<string, string>> = {
  token: 'security.history.credential.token',
  'ssh-key': 'security.history.credential.sshKey',
  'packages-password': 'security.history.credential.packagesPassword',
};

/** Why a credential's use was refused (issue 42), as a phrase. */
const REFUSAL_IDS: Readonly<Record<CredentialRefusal, string>> = {
  expired: 'security.refusal.expired',
  'read-only': 'security.refusal.readOnly',
  scope: 'security.refusal.scope',
  'ip-whitelist': 'security.refusal.ipWhitelist',
  'org-policy': 'security.refusal.orgPolicy',
  'not-member': 'security.refusal.notMember',
  'wrong-password': 'security.refusal.wrongPassword',
  'not-yet': 'security.refusal.notYet',
  revoked: 'security.refusal.revoked',
  'password-change': 'security.refusal.passwordChange',
};

/** What one history entry says happened, as a sentence built from its kind and detail. */
export function historySentence(entry: HistoryEntry, t: Translate): Sentence {
  const d = entry.detail;
  const method = methodText(d.method, t);
  const reason = d.reason ? t(REASON_IDS[d.reason]) : t('security.reason.unknown');
  const name = d.name ?? '';
  const kind: HistoryKind = entry.kind;
  switch (kind) {
    case 'sign-in.succeeded':
      return d.factor && FACTOR_IDS[d.factor]
        ? { id: 'security.history.kind.signInSucceededFactor', values: { method, factor: t(FACTOR_IDS[d.factor]) } }
        : { id: 'security.history.kind.signInSucceeded', values: { method } };
    case 'sign-in.failed':
      return { id: 'security.history.kind.signInFailed', values: { method, reason } };
    case 'reauth.succeeded':
      return { id: 'security.history.kind.reauthSucceeded', values: { method } };
    case 'reauth.failed':
      return { id: 'security.history.kind.reauthFailed', values: { method, reason } };
    case 'account.locked':
      return d.until
        ? { id: 'security.history.kind.lockedUntil', values: { until: <LocalTime key="until" value={d.until} /> } }
        : { id: 'security.history.kind.lockedUntilUnlocked', values: {} };
    case 'account.unlocked':
      return {
        id:
          d.by === 'admin'
            ? 'security.history.kind.unlockedAdmin'
            : d.by === 'time'
              ? 'security.history.kind.unlockedTime'
              : 'security.history.kind.unlocked',
        values: {},
      };
    case 'password.changed':
      return { id: PASSWORD_IDS[d.how ?? ''] ?? 'security.history.kind.passwordChanged', values: {} };
    case 'email.changed':
      return d.email
        ? { id: 'security.history.kind.emailChangedTo', values: { email: d.email } }
        : { id: 'security.history.kind.emailRemoved', values: {} };
    case 'sign-in.new-device':
      return { id: 'security.history.kind.newDevice', values: {} };
    case 'credential.created':
    case 'credential.deleted': {
      const ids = CREDENTIAL_IDS[d.credential ?? ''] ?? OTHER_CREDENTIAL;
      return {
        id: kind === 'credential.created' ? ids.created : ids.deleted,
        values: { name, credential: d.credential ?? '' },
      };
    }
    case 'session.ended':
      return {
        id: ENDED_IDS[d.by ?? ''] ?? 'security.history.kind.sessionEnded',
        values: { count: d.count ?? 1 },
      };
    case 'account.not-me':
      return { id: 'security.history.kind.notMe', values: {} };
    case 'second-factor.added':
      return d.factor === 'totp'
        ? { id: 'security.history.kind.totpAdded', values: {} }
        : { id: 'security.history.kind.passkeyAdded', values: { name } };
    case 'second-factor.removed': {
      const admin = d.by === 'admin';
      if (d.factor === 'all')
        return {
          id: admin ? 'security.history.kind.factorsRemovedAdmin' : 'security.history.kind.factorsRemoved',
          values: {},
        };
      if (d.factor === 'totp')
        return {
          id: admin ? 'security.history.kind.totpRemovedAdmin' : 'security.history.kind.totpRemoved',
          values: {},
        };
      return {
        id: admin ? 'security.history.kind.passkeyRemovedAdmin' : 'security.history.kind.passkeyRemoved',
        values: { name },
      };
    }
    case 'recovery-codes.generated':
      return { id: 'security.history.kind.codesGenerated', values: { count: d.count ?? RECOVERY_CODE_COUNT } };
    case 'recovery-code.used':
      return { id: 'security.history.kind.codeUsed', values: { left: d.left ?? 0 } };
    case 'credential.refused': {
      const values = {
        credential: t(CREDENTIAL_KIND_IDS[d.credential ?? ''] ?? 'security.history.credential.other'),
        name,
        reason: t((d.refusal && REFUSAL_IDS[d.refusal]) || 'security.refusal.other'),
        action: d.action ?? '',
      };
      return {
        id: name ? 'security.history.kind.credentialRefused' : 'security.history.kind.credentialRefusedUnnamed',
        values,
      };
    }
    case 'credential.regenerated':
      return { id: 'security.history.kind.tokenRegenerated', values: { name } };
    case 'credential.recreated':
      return { id: 'security.history.kind.tokenRecreated', values: { name } };
    case 'credentials.stale-revoked':
      return {
        id: 'security.history.kind.staleRevoked',
        values: { count: (d.revoked ?? []).reduce((n, r) => n + r.count, 0) },
      };
  }
  // A kind this page does not know yet (a newer service): said plainly rather than left out.
  return { id: 'security.history.kind.other', values: { kind: String(kind) } };
}
