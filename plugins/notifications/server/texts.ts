import type { AccountEventBody, AccountEventType, BrowserInfo } from '../../../server/events';
import type { ServerLocale } from '../../../server/i18n/index';
import type { InboxApp } from '../limits';

/** How one event type shows in the inbox: where it comes from, whether it is a security event, what it says. */
interface MessageKind<T extends AccountEventType> {
  app: InboxApp;
  /** A security event (sensitive behaviour): marked, and not deletable while unread. */
  sensitive: boolean;
  /** Where to act, a path of this product; null when there is nothing to do here. */
  link: string | null;
  /**
   * Kept (not deletable, read or not) for `KEEP_MS` after it arrived: a change of the account's e-mail, so whoever
   * made it with a stolen session cannot hide it from the owner.
   */
  kept?: boolean;
  /** Title and body per language, from the event's fields. */
  text: Record<ServerLocale, (e: Extract<AccountEventBody, { type: T }>) => { title: string; body: string }>;
}

/** Events that make no message: the account's history on the security page lists them. */
type HistoryOnly =
  | 'sign-in.succeeded'
  | 'sign-in.failed'
  | 'account.unlocked'
  | 'token.deleted'
  | 'ssh-key.deleted'
  | 'session.ended'
  | 'reauth.succeeded'
  | 'reauth.failed'
  | 'credential.refused'
  | 'credentials.stale-revoked';

type Kinds = { [T in Exclude<AccountEventType, HistoryOnly>]: MessageKind<T> };

/** A day as messages print it (UTC, as the service keeps it). */
const day = (at: number): string => new Date(at).toISOString().slice(0, 10);
/** An instant to the minute as messages print it (UTC). */
const minute = (at: number): string => new Date(at).toISOString().slice(0, 16).replace('T', ' ');
/** The last valid day of an expiry instant stored as the start of the next day (licences). */
const lastDay = (at: number): string => day(at - 1);

/** A browser in the reader's language: 'Chrome 131 on Windows' / 'Chrome 131（Windows）'. */
function browserName(b: BrowserInfo, locale: ServerLocale): string {
  const name = b.name ? `${b.name}${b.version ? ` ${b.version}` : ''}` : null;
  if (locale === 'zh_CN') return `${name ?? '未知浏览器'}${b.os ? `（${b.os}）` : ''}`;
  return `${name ?? 'an unknown browser'}${b.os ? ` on ${b.os}` : ''}`;
}

/** What "this wasn't me" revoked, as a clause of its message: each kind of credential the account had. */
function revoked(credentials: { credential: string; count: number }[], locale: ServerLocale): string {
  return credentials
    .filter((c) => c.count > 0)
    .map((c) => {
      if (c.credential === 'token')
        return locale === 'zh_CN'
          ? `，已删除 ${c.count} 个个人访问令牌`
          : `, ${c.count} personal access token(s) deleted`;
      if (c.credential === 'packages-password')
        return locale === 'zh_CN' ? '，已更换制品仓库密码' : ', the artifact repository password replaced';
      return locale === 'zh_CN' ? `，已吊销 ${c.count} 个凭证` : `, ${c.count} credential(s) revoked`;
    })
    .join('');
}

const TOKENS = '/users/settings/personalAccessToken';
const SSH = '/users/settings/ssh';
const PROFILE = '/users/settings/profile';
const PACKAGES = '/users/settings/packagesCredential';
const SECURITY = '/users/settings/security';

/**
 * Every event type the inbox shows. Texts are rendered when the list is read, in the reader's language, so a
 * language switch changes old messages too; only an administrator's notice keeps the words it was posted with.
 */
export const MESSAGE_KINDS: Kinds = {
  'token.created': {
    app: 'account',
    sensitive: true,
    link: TOKENS,
    text: {
      en_US: (e) => ({
        title: 'Personal access token created',
        body: `The personal access token "${e.name}" was created${e.expiresAt ? `; it expires on ${day(e.expiresAt)}` : ''}. If it was not you, delete it and change your password.`,
      }),
      zh_CN: (e) => ({
        title: '已创建个人访问令牌',
        body: `个人访问令牌“${e.name}”已创建${e.expiresAt ? `，将于 ${day(e.expiresAt)} 过期` : ''}。如非本人操作，请删除该令牌并修改密码。`,
      }),
    },
  },
  'token.expiring': {
    app: 'account',
    sensitive: false,
    link: TOKENS,
    text: {
      en_US: (e) => ({
        title: 'Personal access token about to expire',
        body: `The personal access token "${e.name}" expires on ${day(e.expiresAt)}. Create a new one before then if you still need it.`,
      }),
      zh_CN: (e) => ({
        title: '个人访问令牌即将过期',
        body: `个人访问令牌“${e.name}”将于 ${day(e.expiresAt)} 过期。如仍需使用，请在此之前新建令牌。`,
      }),
    },
  },
  'token.expired': {
    app: 'account',
    sensitive: false,
    link: TOKENS,
    text: {
      en_US: (e) => ({
        title: 'Personal access token expired',
        body: `The personal access token "${e.name}" expired on ${day(e.expiresAt)} and no longer works.`,
      }),
      zh_CN: (e) => ({
        title: '个人访问令牌已过期',
        body: `个人访问令牌“${e.name}”已于 ${day(e.expiresAt)} 过期，不能再使用。`,
      }),
    },
  },
  'token.regenerated': {
    app: 'account',
    sensitive: true,
    link: TOKENS,
    text: {
      en_US: (e) => ({
        title: 'Personal access token regenerated',
        body: `The personal access token "${e.name}" has a new secret; it expires on ${day(e.expiresAt)}. ${e.oldStopsAt === null ? 'The old secret stopped working at once.' : `The old secret works until ${minute(e.oldStopsAt)} UTC.`} If it was not you, delete the token and change your password.`,
      }),
      zh_CN: (e) => ({
        title: '已重新生成个人访问令牌',
        body: `个人访问令牌“${e.name}”已生成新的密钥，将于 ${day(e.expiresAt)} 过期；${e.oldStopsAt === null ? '原密钥已立即停用' : `原密钥可用至 ${minute(e.oldStopsAt)}（UTC）`}。如非本人操作，请删除该令牌并修改密码。`,
      }),
    },
  },
  'token.recreated': {
    app: 'account',
    sensitive: true,
    link: TOKENS,
    text: {
      en_US: (e) => ({
        title: 'Expired personal access token re-created',
        body: `The expired personal access token "${e.name}" was created again with its scopes; it expires on ${day(e.expiresAt)}.${e.dropped.length ? ` Scopes no longer offered were left out: ${e.dropped.join(', ')}.` : ''} If it was not you, delete it and change your password.`,
      }),
      zh_CN: (e) => ({
        title: '已重新创建过期的个人访问令牌',
        body: `已过期的个人访问令牌“${e.name}”已按原权限范围重新创建，将于 ${day(e.expiresAt)} 过期。${e.dropped.length ? `已不再提供的权限范围未保留：${e.dropped.join('、')}。` : ''}如非本人操作，请删除该令牌并修改密码。`,
      }),
    },
  },
  'ssh-key.added': {
    app: 'account',
    sensitive: true,
    link: SSH,
    text: {
      en_US: (e) => ({
        title: 'SSH key added',
        body: `The SSH key "${e.name}" (${e.fingerprint}) was added to your account. If it was not you, delete it and change your password.`,
      }),
      zh_CN: (e) => ({
        title: '已添加 SSH 公钥',
        body: `SSH 公钥“${e.name}”（${e.fingerprint}）已添加到你的账号。如非本人操作，请删除该公钥并修改密码。`,
      }),
    },
  },
  'ssh-key.expiring': {
    app: 'account',
    sensitive: false,
    link: SSH,
    text: {
      en_US: (e) => ({
        title: 'SSH key about to expire',
        body: `The SSH key "${e.name}" expires on ${day(e.expiresAt)}.`,
      }),
      zh_CN: (e) => ({ title: 'SSH 公钥即将过期', body: `SSH 公钥“${e.name}”将于 ${day(e.expiresAt)} 过期。` }),
    },
  },
  'ssh-key.expired': {
    app: 'account',
    sensitive: false,
    link: SSH,
    text: {
      en_US: (e) => ({
        title: 'SSH key expired',
        body: `The SSH key "${e.name}" expired on ${day(e.expiresAt)}; code hosting no longer accepts it.`,
      }),
      zh_CN: (e) => ({
        title: 'SSH 公钥已过期',
        body: `SSH 公钥“${e.name}”已于 ${day(e.expiresAt)} 过期，代码托管不再接受该公钥。`,
      }),
    },
  },
  'packages.password-reset': {
    app: 'packages',
    sensitive: true,
    link: PACKAGES,
    text: {
      en_US: () => ({
        title: 'Artifact repository password reset',
        body: 'The password of your artifact repository credential was reset. Clients using the old one must be updated.',
      }),
      zh_CN: () => ({
        title: '制品仓库密码已重置',
        body: '你的制品仓库凭证密码已重置，使用旧密码的客户端需要更新。',
      }),
    },
  },
  'password.changed': {
    app: 'account',
    sensitive: true,
    link: PROFILE,
    text: {
      en_US: (e) => ({
        title: 'Password changed',
        body: `Your password was changed${e.how === 'recovery' ? ' through password recovery' : ''}. If it was not you, reset your password at once.`,
      }),
      zh_CN: (e) => ({
        title: '密码已修改',
        body: `你的密码已${e.how === 'recovery' ? '通过找回密码' : ''}修改。如非本人操作，请立即重置密码。`,
      }),
    },
  },
  'email.bound': {
    app: 'account',
    sensitive: true,
    kept: true,
    link: PROFILE,
    text: {
      en_US: (e) => ({ title: 'Email added', body: `The email address ${e.email} was added to your account.` }),
      zh_CN: (e) => ({ title: '已绑定邮箱', body: `邮箱 ${e.email} 已绑定到你的账号。` }),
    },
  },
  'email.changed': {
    app: 'account',
    sensitive: true,
    kept: true,
    link: PROFILE,
    text: {
      en_US: (e) => ({ title: 'Email changed', body: `Your account's email address was changed to ${e.email}.` }),
      zh_CN: (e) => ({ title: '邮箱已修改', body: `你的账号邮箱已修改为 ${e.email}。` }),
    },
  },
  'email.unbound': {
    app: 'account',
    sensitive: true,
    kept: true,
    link: PROFILE,
    text: {
      en_US: (e) => ({
        title: 'Email removed',
        body: `The email address ${e.email} was removed from your account; it no longer receives notification emails.`,
      }),
      zh_CN: (e) => ({ title: '已解绑邮箱', body: `邮箱 ${e.email} 已从你的账号解绑，将不再接收通知邮件。` }),
    },
  },
  'avatar.changed': {
    app: 'account',
    sensitive: false,
    link: PROFILE,
    text: {
      en_US: () => ({ title: 'Avatar changed', body: 'Your avatar was changed.' }),
      zh_CN: () => ({ title: '头像已修改', body: '你的头像已修改。' }),
    },
  },
  'sign-in.new-device': {
    app: 'account',
    sensitive: true,
    link: PROFILE,
    text: {
      en_US: (e) => ({
        title: 'New sign-in to your account',
        body: `Your account was signed in from ${e.address} with ${browserName(e.browser, 'en_US')}, which it had not been seen with before. If it was not you, change your password.`,
      }),
      zh_CN: (e) => ({
        title: '账号有新的登录',
        body: `你的账号在 ${e.address} 通过 ${browserName(e.browser, 'zh_CN')} 登录，此前未见过该地址或浏览器。如非本人操作，请修改密码。`,
      }),
    },
  },
  'account.locked': {
    app: 'account',
    sensitive: true,
    link: PROFILE,
    // `lock` (smart lockout) says whose browsers are locked; messages stored before it existed have none.
    text: {
      en_US: (e) => {
        const until = `${new Date(e.until).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
        if (e.lock === 'unmarked')
          return {
            title: 'Sign-in from unknown browsers locked',
            body: `Too many wrong passwords were tried for your account from browsers it has never signed in with (last from ${e.address}); sign-in from such browsers is locked until ${until}. Browsers you have signed in with before can still sign in. If it was not you, consider changing your password.`,
          };
        if (e.lock === 'marked')
          return {
            title: 'Sign-in from your browsers locked',
            body: `Too many wrong passwords were tried for your account from browsers it has signed in with before (last from ${e.address}); sign-in from those browsers is locked until ${until}. If it was not you, change your password from another browser and check your devices.`,
          };
        return {
          title: 'Account locked after failed sign-ins',
          body: `Too many wrong passwords were tried for your account (last from ${e.address}); it is locked until ${until}. If it was not you, consider changing your password.`,
        };
      },
      zh_CN: (e) => {
        const until = `${new Date(e.until).toISOString().slice(0, 16).replace('T', ' ')}（UTC）`;
        if (e.lock === 'unmarked')
          return {
            title: '陌生浏览器的登录已锁定',
            body: `有人在从未登录过你账号的浏览器上多次输入错误密码（最近一次来自 ${e.address}），此类浏览器的登录已锁定至 ${until}。你以前登录过的浏览器仍可正常登录。如非本人操作，建议修改密码。`,
          };
        if (e.lock === 'marked')
          return {
            title: '你常用浏览器的登录已锁定',
            body: `在你以前登录过的浏览器上多次输入错误密码（最近一次来自 ${e.address}），这些浏览器的登录已锁定至 ${until}。如非本人操作，请在其他浏览器上修改密码并检查你的设备。`,
          };
        return {
          title: '账号因多次登录失败已锁定',
          body: `你的账号多次输入错误密码（最近一次来自 ${e.address}），已锁定至 ${until}。如非本人操作，建议修改密码。`,
        };
      },
    },
  },
  'org.ip-whitelist-changed': {
    app: 'organization',
    sensitive: true,
    link: null,
    text: {
      en_US: (e) => ({
        title: 'IP whitelist changed',
        body: e.cidrs.length
          ? `The IP whitelist of ${e.org} now admits only ${e.cidrs.join(', ')}.`
          : `The IP whitelist of ${e.org} was cleared; requests are accepted from any address.`,
      }),
      zh_CN: (e) => ({
        title: 'IP 白名单已修改',
        body: e.cidrs.length
          ? `企业 ${e.org} 的 IP 白名单现在只允许 ${e.cidrs.join('、')}。`
          : `企业 ${e.org} 的 IP 白名单已清空，任何地址的请求均被接受。`,
      }),
    },
  },
  'org.licence-expiring': {
    app: 'organization',
    sensitive: false,
    link: null,
    text: {
      en_US: (e) => ({
        title: 'License about to expire',
        body: `The license of ${e.org} is valid through ${lastDay(e.expiresAt)}. Renew it before then, or members can no longer work in it.`,
      }),
      zh_CN: (e) => ({
        title: '许可证即将过期',
        body: `企业 ${e.org} 的许可证有效期至 ${lastDay(e.expiresAt)}，请在此之前续期，否则成员将无法继续使用。`,
      }),
    },
  },
  'org.second-factor-required': {
    app: 'organization',
    sensitive: true,
    link: SECURITY,
    text: {
      en_US: (e) => ({
        title: 'Two-factor authentication required',
        body: `${e.org} now requires its members to use two-factor authentication. If you have no authenticator app or passkey yet, set one up on the security page${e.graceDays ? ` before ${minute(e.enforcedFrom)} (UTC)` : ''}: ${e.graceDays ? 'from then on' : 'until then'}, ${e.org} refuses your requests.`,
      }),
      zh_CN: (e) => ({
        title: '企业要求开启两步验证',
        body: `企业 ${e.org} 现要求成员开启两步验证。如你尚未设置身份验证器应用或通行密钥，请${e.graceDays ? `在 ${minute(e.enforcedFrom)}（UTC）之前` : ''}到账号安全页设置，${e.graceDays ? '否则届时' : '在此之前'}将无法进入企业 ${e.org}。`,
      }),
    },
  },
  'account.not-me': {
    app: 'account',
    sensitive: true,
    link: SECURITY,
    text: {
      en_US: (e) => ({
        title: '"This wasn\'t me": your account was secured',
        body: `You said a recent activity was not yours. ${e.sessions} other session(s) were signed out${revoked(e.credentials, 'en_US')}${e.locked ? ', and the account is locked until an administrator unlocks it' : ''}. Change your password if you have not already.`,
      }),
      zh_CN: (e) => ({
        title: '“不是我本人”：账号已加固',
        body: `你报告了一项并非本人的操作。已退出其他 ${e.sessions} 个会话${revoked(e.credentials, 'zh_CN')}${e.locked ? '，账号已锁定，需管理员解锁' : ''}。如尚未修改密码，请立即修改。`,
      }),
    },
  },
  'second-factor.added': {
    app: 'account',
    sensitive: true,
    link: SECURITY,
    text: {
      en_US: (e) => ({
        title: 'Two-factor method added',
        body: `${e.factor === 'totp' ? 'An authenticator app' : `The passkey "${e.name ?? ''}"`} was added to your account as a second factor. If it was not you, remove it, change your password and sign out your other sessions.`,
      }),
      zh_CN: (e) => ({
        title: '已添加两步验证方式',
        body: `${e.factor === 'totp' ? '身份验证器应用' : `通行密钥“${e.name ?? ''}”`}已添加为你账号的第二重验证。如非本人操作，请移除它、修改密码并退出其他会话。`,
      }),
    },
  },
  'second-factor.removed': {
    app: 'account',
    sensitive: true,
    link: SECURITY,
    text: {
      en_US: (e) => ({
        title: e.factor === 'all' ? 'Two-factor sign-in turned off' : 'Two-factor method removed',
        body: `${
          e.factor === 'all'
            ? 'All second factors and recovery codes were removed from your account'
            : e.factor === 'totp'
              ? 'The authenticator app was removed from your account'
              : `The passkey "${e.name ?? ''}" was removed from your account`
        }${e.by === 'admin' ? ' by an administrator' : ''}. If it was not you, change your password and set up two-factor sign-in again.`,
      }),
      zh_CN: (e) => ({
        title: e.factor === 'all' ? '两步验证已关闭' : '已移除两步验证方式',
        body: `${e.by === 'admin' ? '管理员已' : '已'}${
          e.factor === 'all'
            ? '移除你账号的全部第二重验证方式和恢复码'
            : e.factor === 'totp'
              ? '移除你账号的身份验证器应用'
              : `移除你账号的通行密钥“${e.name ?? ''}”`
        }。如非本人操作，请修改密码并重新设置两步验证。`,
      }),
    },
  },
  'recovery-codes.generated': {
    app: 'account',
    sensitive: true,
    link: SECURITY,
    text: {
      en_US: (e) => ({
        title: 'New recovery codes',
        body: `${e.count} new recovery codes were made for your account; the old ones no longer work. If it was not you, change your password and make new codes.`,
      }),
      zh_CN: (e) => ({
        title: '已生成新的恢复码',
        body: `已为你的账号生成 ${e.count} 个新的恢复码，旧恢复码已失效。如非本人操作，请修改密码并重新生成恢复码。`,
      }),
    },
  },
  'recovery-code.used': {
    app: 'account',
    sensitive: true,
    link: SECURITY,
    text: {
      en_US: (e) => ({
        title: 'Recovery code used',
        body: `A recovery code was used to sign in to your account; ${e.left} left.${e.left <= 2 ? ' Make new recovery codes soon.' : ''} If it was not you, change your password at once.`,
      }),
      zh_CN: (e) => ({
        title: '已使用恢复码',
        body: `有人使用恢复码登录了你的账号，剩余 ${e.left} 个。${e.left <= 2 ? '请尽快重新生成恢复码。' : ''}如非本人操作，请立即修改密码。`,
      }),
    },
  },
  'org.notice': {
    app: 'organization',
    sensitive: false,
    link: null,
    text: {
      en_US: (e) => ({ title: e.title, body: e.body }),
      zh_CN: (e) => ({ title: e.title, body: e.body }),
    },
  },
};

/** How long a kept message (`kept`) cannot be deleted after it arrived. */
export const KEEP_MS = 7 * 24 * 60 * 60 * 1000;

/** The event types whose messages are kept for `KEEP_MS`. */
export const KEPT_TYPES: readonly AccountEventType[] = (Object.keys(MESSAGE_KINDS) as (keyof Kinds)[]).filter(
  (t) => MESSAGE_KINDS[t].kept,
);

/** The kind of an event type; undefined for a type this version does not know (a newer instance wrote it). */
export function messageKind(type: string): MessageKind<AccountEventType> | undefined {
  return Object.hasOwn(MESSAGE_KINDS, type)
    ? (MESSAGE_KINDS[type as keyof Kinds] as MessageKind<AccountEventType>)
    : undefined;
}
