import type { ServerLocale } from '../../../server/i18n/index';
import type { Browser, FailureReason, HistoryDetail, HistoryEntry, HistoryKind } from '../contract';
import type { CredentialRefusal } from '../../../schemas/credential-kinds';

/** What the export (and the admin CLI, in English) says about history entries, in one language. */
export interface HistoryTexts {
  /** The CSV's header row. */
  columns: readonly [time: string, event: string, details: string, name: string, address: string, browser: string];
  kinds: Record<HistoryKind, string>;
  reasons: Record<FailureReason, string>;
  /** Sign-in methods by id; another provider id is shown as it is. */
  methods: Record<string, string>;
  /** How a password was changed. */
  how: Record<string, string>;
  /** Who ended sessions or lifted a lock. */
  by: Record<string, string>;
  /** Credentials by kind. */
  credentials: Record<string, string>;
  /** Second factors by kind (`totp`, `webauthn`, `recovery`, `all`). */
  factors: Record<string, string>;
  /** Why a credential's use was refused (issue 42), by `CREDENTIAL_REFUSALS`. */
  refusals: Record<CredentialRefusal, string>;
  /** The parts of the details cell. */
  detail: {
    method: (m: string) => string;
    reason: (r: string) => string;
    email: (masked: string) => string;
    emailRemoved: string;
    count: (n: number) => string;
    /** recovery-codes.generated: how many codes were made. */
    codes: (n: number) => string;
    /** recovery-code.used: how many are left. */
    left: (n: number) => string;
    /** sign-in.succeeded: the second factor it answered. */
    factor: (f: string) => string;
    until: (at: string) => string;
    /** credential.refused: what was tried. */
    action: (action: string) => string;
    /** credentials.stale-revoked: how many of a kind went (`kind` already in words). */
    revoked: (kind: string, n: number) => string;
    separator: string;
  };
  /** The browser cell. */
  browser: (name: string, os: string | null) => string;
}

/** Shared by both languages: product names stay as they are. */
const METHOD_NAMES = { ldap: 'LDAP', ad: 'Windows AD' };

/** The history's words in each language the service answers in. */
export const HISTORY_TEXTS: Record<ServerLocale, HistoryTexts> = {
  en_US: {
    columns: ['Time (UTC)', 'Event', 'Details', 'Name', 'IP address', 'Browser'],
    kinds: {
      'sign-in.succeeded': 'Signed in',
      'sign-in.failed': 'Sign-in failed',
      'account.locked': 'Account locked',
      'account.unlocked': 'Account unlocked',
      'password.changed': 'Password changed',
      'email.changed': 'Email changed',
      'sign-in.new-device': 'Sign-in from a new device',
      'credential.created': 'Credential created',
      'credential.deleted': 'Credential deleted',
      'session.ended': 'Sessions ended',
      'reauth.succeeded': 'Identity confirmed',
      'reauth.failed': 'Identity confirmation failed',
      'account.not-me': 'Reported "this wasn\'t me"',
      'second-factor.added': 'Two-factor method added',
      'second-factor.removed': 'Two-factor method removed',
      'recovery-codes.generated': 'Recovery codes generated',
      'recovery-code.used': 'Recovery code used',
      'credential.refused': 'Credential use refused',
      'credentials.stale-revoked': 'Stale credentials revoked',
      'credential.regenerated': 'Credential regenerated',
      'credential.recreated': 'Expired credential re-created',
    },
    reasons: {
      'wrong-password': 'wrong password',
      locked: 'account locked',
      'slider-failed': 'slider check not passed',
      'directory-refused': 'refused by the directory',
      'third-party-refused': 'refused by the third-party platform',
      'wrong-second-factor': 'wrong two-factor code or passkey',
    },
    methods: {
      password: 'password',
      directory: 'directory password',
      ...METHOD_NAMES,
      dingtalk: 'DingTalk',
      lark: 'Lark',
      wecom: 'WeCom',
      passkey: 'passkey',
    },
    how: {
      settings: 'in the settings',
      recovery: 'by password recovery',
      'first-sign-in': 'first password',
      admin: 'by an administrator',
    },
    by: {
      member: 'by you',
      'not-me': 'by "this wasn\'t me"',
      admin: 'by an administrator',
      time: 'the lock expired',
    },
    credentials: {
      token: 'Personal access token',
      'ssh-key': 'SSH key',
      'packages-password': 'Artifact repository password',
      session: 'Session',
    },
    factors: {
      totp: 'Authenticator app',
      webauthn: 'Passkey',
      recovery: 'Recovery code',
      all: 'All two-factor methods and recovery codes',
    },
    refusals: {
      expired: 'the credential has expired',
      'read-only': 'the SSH key is read-only',
      scope: 'the token lacks the scope',
      'ip-whitelist': "the address is outside the organization's IP whitelist",
      'org-policy': "the organization's policy refused it",
      'not-member': "not a member of the repository's organization",
      'wrong-password': 'wrong password',
      'not-yet': 'the new password was not in effect yet',
      revoked: 'the credential was revoked',
      'password-change': 'the account must change its password first',
    },
    detail: {
      method: (m) => `Method: ${m}`,
      reason: (r) => `Reason: ${r}`,
      email: (masked) => `New address: ${masked}`,
      emailRemoved: 'Email removed',
      count: (n) => `${n} session${n === 1 ? '' : 's'}`,
      codes: (n) => `${n} code${n === 1 ? '' : 's'}`,
      left: (n) => `${n} left`,
      factor: (f) => `Second factor: ${f}`,
      until: (at) => `Until ${at} UTC`,
      action: (action) => `Action: ${action}`,
      revoked: (kind, n) => `${kind}: ${n}`,
      separator: '; ',
    },
    browser: (name, os) => (os ? `${name} on ${os}` : name),
  },
  zh_CN: {
    columns: ['时间（UTC）', '事件', '详情', '名称', 'IP 地址', '浏览器'],
    kinds: {
      'sign-in.succeeded': '登录成功',
      'sign-in.failed': '登录失败',
      'account.locked': '账号已锁定',
      'account.unlocked': '账号已解锁',
      'password.changed': '密码已修改',
      'email.changed': '邮箱已修改',
      'sign-in.new-device': '新设备登录',
      'credential.created': '凭证已创建',
      'credential.deleted': '凭证已删除',
      'session.ended': '会话已结束',
      'reauth.succeeded': '身份验证成功',
      'reauth.failed': '身份验证失败',
      'account.not-me': '已报告“不是我本人操作”',
      'second-factor.added': '已添加两步验证方式',
      'second-factor.removed': '已移除两步验证方式',
      'recovery-codes.generated': '已生成恢复码',
      'recovery-code.used': '已使用恢复码',
      'credential.refused': '凭证使用被拒绝',
      'credentials.stale-revoked': '已吊销闲置凭证',
      'credential.regenerated': '凭证已重新生成',
      'credential.recreated': '已重新创建过期凭证',
    },
    reasons: {
      'wrong-password': '密码错误',
      locked: '账号已锁定',
      'slider-failed': '滑块验证未通过',
      'directory-refused': '目录服务拒绝',
      'third-party-refused': '第三方平台拒绝',
      'wrong-second-factor': '两步验证码或通行密钥错误',
    },
    methods: {
      password: '密码',
      directory: '目录密码',
      ...METHOD_NAMES,
      dingtalk: '钉钉',
      lark: '飞书',
      wecom: '企业微信',
      passkey: '通行密钥',
    },
    how: {
      settings: '在设置中修改',
      recovery: '通过找回密码',
      'first-sign-in': '首次设置密码',
      admin: '由管理员操作',
    },
    by: {
      member: '由本人操作',
      'not-me': '通过“不是我本人操作”',
      admin: '由管理员操作',
      time: '锁定到期',
    },
    credentials: {
      token: '个人访问令牌',
      'ssh-key': 'SSH 公钥',
      'packages-password': '制品仓库密码',
      session: '会话',
    },
    factors: {
      totp: '身份验证器应用',
      webauthn: '通行密钥',
      recovery: '恢复码',
      all: '全部两步验证方式和恢复码',
    },
    refusals: {
      expired: '凭证已过期',
      'read-only': 'SSH 公钥为只读',
      scope: '令牌没有所需的权限范围',
      'ip-whitelist': '地址不在企业 IP 白名单内',
      'org-policy': '企业策略不允许',
      'not-member': '不是代码库所属企业的成员',
      'wrong-password': '密码错误',
      'not-yet': '新密码尚未生效',
      revoked: '凭证已被吊销',
      'password-change': '账号需先修改密码',
    },
    detail: {
      method: (m) => `方式：${m}`,
      reason: (r) => `原因：${r}`,
      email: (masked) => `新邮箱：${masked}`,
      emailRemoved: '邮箱已解绑',
      count: (n) => `${n} 个会话`,
      codes: (n) => `${n} 个恢复码`,
      left: (n) => `剩余 ${n} 个`,
      factor: (f) => `第二重验证：${f}`,
      until: (at) => `锁定至 ${at} UTC`,
      action: (action) => `操作：${action}`,
      revoked: (kind, n) => `${kind}：${n}`,
      separator: '；',
    },
    browser: (name, os) => (os ? `${name}（${os}）` : name),
  },
};

/** An ISO instant as the export writes it: `2026-01-01 09:00:00` (UTC, as the column says). */
export function utcTime(iso: string): string {
  return iso.slice(0, 19).replace('T', ' ');
}

/** The details of an entry in words, each part the entry has but its name (a column of its own), in the texts' language. */
export function describeDetail(t: HistoryTexts, kind: HistoryKind, d: HistoryDetail): string {
  const parts: string[] = [];
  if (d.method !== undefined) parts.push(t.detail.method(t.methods[d.method] ?? d.method));
  if (d.reason !== undefined) parts.push(t.detail.reason(t.reasons[d.reason] ?? d.reason));
  if (d.how !== undefined) parts.push(t.how[d.how] ?? d.how);
  if (d.credential !== undefined) parts.push(t.credentials[d.credential] ?? d.credential);
  if (d.factor !== undefined) {
    const factor = t.factors[d.factor] ?? d.factor;
    parts.push(kind === 'sign-in.succeeded' ? t.detail.factor(factor) : factor);
  }
  if (d.email !== undefined) parts.push(t.detail.email(d.email));
  else if (kind === 'email.changed') parts.push(t.detail.emailRemoved);
  if (d.by !== undefined) parts.push(t.by[d.by] ?? d.by);
  if (d.count !== undefined)
    parts.push(kind === 'recovery-codes.generated' ? t.detail.codes(d.count) : t.detail.count(d.count));
  if (d.left !== undefined) parts.push(t.detail.left(d.left));
  if (d.until !== undefined) parts.push(t.detail.until(utcTime(d.until)));
  if (d.action !== undefined) parts.push(t.detail.action(d.action));
  if (d.refusal !== undefined) parts.push(t.detail.reason(t.refusals[d.refusal] ?? d.refusal));
  for (const r of d.revoked ?? []) parts.push(t.detail.revoked(t.credentials[r.credential] ?? r.credential, r.count));
  return parts.join(t.detail.separator);
}

/** A browser in words (name and major version, and the system), empty when its User-Agent told nothing. */
export function describeBrowserCell(t: HistoryTexts, b: Browser | null): string {
  if (!b || (!b.name && !b.os)) return '';
  const name = [b.name, b.version].filter(Boolean).join(' ');
  return name ? t.browser(name, b.os) : (b.os ?? '');
}

/**
 * The cells of one entry in the export's column order. The name a member gave a credential is a cell of its own:
 * the one cell whose start a member chooses (the export neutralises it when it would start a formula).
 */
export function entryCells(t: HistoryTexts, e: HistoryEntry): string[] {
  return [
    utcTime(e.at),
    t.kinds[e.kind] ?? e.kind,
    describeDetail(t, e.kind, e.detail),
    e.detail.name ?? '',
    e.address ?? '',
    describeBrowserCell(t, e.browser),
  ];
}
