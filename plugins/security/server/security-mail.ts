import type { AccountEvent, BrowserInfo, EventDeps, EventOrigin } from '../../../server/events';
import { normalizeLocale, type ServerLocale } from '../../../server/i18n/index';

/**
 * Mail about security events: a password changed, a sign-in from a new device, a lock, "this wasn't me", a second
 * factor added or removed, recovery codes made or one used. Each tells
 * what happened and asks the member to open the product themselves; none carries a link, so a phishing copy with one
 * cannot pass for ours (the inbox message is where the member acts). Sent to the account's verified address only, in
 * its language, else the language of the request that caused it, else both.
 */

/** The events mailed, with their words. */
type MailedType =
  | 'password.changed'
  | 'sign-in.new-device'
  | 'account.locked'
  | 'account.not-me'
  | 'second-factor.added'
  | 'second-factor.removed'
  | 'recovery-codes.generated'
  | 'recovery-code.used';
type Mailed = Extract<AccountEvent, { type: MailedType }>;
const MAILED = new Set<string>([
  'password.changed',
  'sign-in.new-device',
  'account.locked',
  'account.not-me',
  'second-factor.added',
  'second-factor.removed',
  'recovery-codes.generated',
  'recovery-code.used',
] satisfies MailedType[]);

/** A phrase that starts a sentence. */
const upper = (phrase: string) => phrase.charAt(0).toUpperCase() + phrase.slice(1);

/** A factor as an English mail names it: the app, or a passkey by its name. */
function factorEn(e: Extract<Mailed, { type: 'second-factor.added' | 'second-factor.removed' }>): string {
  if (e.factor === 'all') return 'every two-factor method and recovery code';
  return e.factor === 'totp' ? 'the authenticator app' : `the passkey "${e.name ?? ''}"`;
}

/** A factor as a Chinese mail names it. */
function factorZh(e: Extract<Mailed, { type: 'second-factor.added' | 'second-factor.removed' }>): string {
  if (e.factor === 'all') return '全部两步验证方式和恢复码';
  return e.factor === 'totp' ? '身份验证器应用' : `通行密钥“${e.name ?? ''}”`;
}

/** A time as a mail prints it: UTC to the minute. */
const at = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

function browser(b: BrowserInfo, locale: ServerLocale): string {
  const name = b.name ? `${b.name}${b.version ? ` ${b.version}` : ''}` : null;
  if (locale === 'zh_CN') return `${name ?? '未知浏览器'}${b.os ? `（${b.os}）` : ''}`;
  return `${name ?? 'an unknown browser'}${b.os ? ` on ${b.os}` : ''}`;
}

/** What each mail says: subject and the lines about the event (the advice is the same for all). */
const WORDS: Record<ServerLocale, (e: Mailed, when: string) => { subject: string; what: string }> = {
  en_US: (e, when) => {
    switch (e.type) {
      case 'password.changed':
        return e.how === 'recovery'
          ? {
              subject: 'Your password was changed',
              what: `The password of your account was just changed through password recovery (${when}), and every signed-in session was ended.`,
            }
          : { subject: 'Your password was changed', what: `The password of your account was changed (${when}).` };
      case 'sign-in.new-device':
        return {
          subject: 'New sign-in to your account',
          what: `Your account was signed in from ${e.address} with ${browser(e.browser, 'en_US')}, which it had not been seen with before (${when}).`,
        };
      case 'account.locked':
        return {
          subject: 'Sign-in to your account was locked',
          what: `Too many wrong passwords were tried for your account (last from ${e.address}); sign-in is locked until ${at(e.until)}.`,
        };
      case 'account.not-me':
        return {
          subject: 'Your account was secured',
          what: `You said a recent activity was not yours (${when}): ${e.sessions} other session(s) were signed out and your credentials were revoked${e.locked ? '; the account is locked until an administrator unlocks it' : ''}.`,
        };
      case 'second-factor.added':
        return {
          subject: 'A two-factor method was added to your account',
          what: `${upper(factorEn(e))} was added to your account as a second factor for signing in (${when}).`,
        };
      case 'second-factor.removed':
        return {
          subject:
            e.factor === 'all'
              ? 'Two-factor sign-in was turned off for your account'
              : 'A two-factor method was removed from your account',
          what: `${upper(factorEn(e))} was removed from your account${e.by === 'admin' ? ' by an administrator' : ''} (${when}).`,
        };
      case 'recovery-codes.generated':
        return {
          subject: 'New recovery codes were made for your account',
          what: `${e.count} new recovery codes were made for your account (${when}); the old ones no longer work.`,
        };
      case 'recovery-code.used':
        return {
          subject: 'A recovery code was used to sign in',
          what: `A recovery code was used to sign in to your account (${when}); ${e.left} unused code(s) left.${e.left <= 2 ? ' Make new ones soon on the Security page.' : ''}`,
        };
    }
  },
  zh_CN: (e, when) => {
    switch (e.type) {
      case 'password.changed':
        return e.how === 'recovery'
          ? {
              subject: '你的密码已修改',
              what: `你的账号密码刚刚通过找回密码流程修改（${when}），所有已登录的会话均已退出。`,
            }
          : { subject: '你的密码已修改', what: `你的账号密码已修改（${when}）。` };
      case 'sign-in.new-device':
        return {
          subject: '账号有新的登录',
          what: `你的账号在 ${e.address} 通过 ${browser(e.browser, 'zh_CN')} 登录，此前未见过该地址或浏览器（${when}）。`,
        };
      case 'account.locked':
        return {
          subject: '账号登录已被锁定',
          what: `你的账号被多次尝试错误密码（最近一次来自 ${e.address}），登录已锁定至 ${at(e.until)}。`,
        };
      case 'account.not-me':
        return {
          subject: '你的账号已加固',
          what: `你报告了一项并非本人的操作（${when}）：已退出其他 ${e.sessions} 个会话并吊销你的凭证${e.locked ? '，账号已锁定，需管理员解锁' : ''}。`,
        };
      case 'second-factor.added':
        return {
          subject: '你的账号添加了两步验证方式',
          what: `${factorZh(e)}已添加为你账号登录时的第二重验证（${when}）。`,
        };
      case 'second-factor.removed':
        return {
          subject: e.factor === 'all' ? '你的账号已关闭两步验证' : '你的账号移除了两步验证方式',
          what: `${e.by === 'admin' ? '管理员已移除' : '已移除'}你账号的${factorZh(e)}（${when}）。`,
        };
      case 'recovery-codes.generated':
        return {
          subject: '你的账号已生成新的恢复码',
          what: `已为你的账号生成 ${e.count} 个新的恢复码（${when}），旧恢复码已失效。`,
        };
      case 'recovery-code.used':
        return {
          subject: '有人使用恢复码登录了你的账号',
          what: `有人使用恢复码登录了你的账号（${when}），剩余 ${e.left} 个未使用的恢复码。${e.left <= 2 ? '请尽快在“安全”页面重新生成。' : ''}`,
        };
    }
  },
};

/** The advice every security mail ends with: open the product yourself; we never send links. */
const ADVICE: Record<ServerLocale, string> = {
  en_US:
    'If this was you, there is nothing to do. If it was not, open the account settings yourself (type the address ' +
    'you always use, or use your bookmark), go to Security and choose "This wasn\'t me"; then change your password.\n\n' +
    'Security mails from us never contain links or ask for your password. A mail like this one with a link in it ' +
    'is not ours: do not follow it.',
  zh_CN:
    '如果是你本人的操作，无需处理。如果不是，请自行打开账号设置（输入你平时使用的地址或使用书签），进入“安全”页面并选择' +
    '“不是我本人”，然后修改密码。\n\n我们的安全邮件从不包含链接，也不会索要你的密码。带有链接的同类邮件并非我们发送，请勿点击。',
};

/** One security mail in one language: subject and body, never a link. */
export function securityMailText(e: Mailed, locale: ServerLocale, now: number): { subject: string; body: string } {
  const { subject, what } = WORDS[locale](e, at(now));
  const hello = locale === 'zh_CN' ? '你好，' : 'Hello,';
  return { subject, body: `${hello}\n\n${what}\n\n${ADVICE[locale]}` };
}

/** Whether an event is one the account's owner is mailed about. */
export function isMailed(e: AccountEvent): e is Mailed & AccountEvent {
  return MAILED.has(e.type) && 'userId' in e.to;
}

/**
 * The receiver: mails a security event to the account's verified address. Never inbox news (answers false): the
 * inbox's own receiver tells that.
 */
export async function mailSecurityEvent(
  deps: EventDeps,
  event: AccountEvent,
  origin: EventOrigin | null,
): Promise<boolean> {
  if (!isMailed(event) || !deps.mailer || !('userId' in event.to)) return false;
  const user = await deps.db
    .selectFrom('users')
    .select(['email', 'email_verified', 'language'])
    .where('id', '=', event.to.userId)
    .executeTakeFirst();
  if (!user?.email || !user.email_verified) return false;
  const now = deps.clock.now().getTime();
  const locale = normalizeLocale(user.language ?? undefined) ?? origin?.locale ?? null;
  if (locale) {
    const { subject, body } = securityMailText(event, locale, now);
    await deps.mailer.send({ to: user.email, subject, text: body });
  } else {
    // Nobody said which language: both, Chinese first (the product's own default).
    const zh = securityMailText(event, 'zh_CN', now);
    const en = securityMailText(event, 'en_US', now);
    await deps.mailer.send({
      to: user.email,
      subject: `${zh.subject} / ${en.subject}`,
      text: `${zh.body}\n\n---\n\n${en.body}`,
    });
  }
  return false;
}
