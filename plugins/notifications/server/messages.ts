import { defineServerMessages } from '../../../server/i18n/index';

/** Error codes of the message center, in both languages the service answers in. */
export const messages = defineServerMessages({
  en_US: {
    InboxMessageNotFound: 'The message does not exist.',
    InboxMessageUnreadSensitive: 'A message about a sensitive action cannot be deleted while unread; read it first.',
    InboxMessageKept:
      'A change of your email stays in the inbox for {days} days after it arrived; it cannot be deleted yet.',
    InboxPageTokenInvalid: 'The page token is invalid; load the list again.',
    InboxNoticeInvalid: 'The notice needs a title (1 to {titleMax} characters) and a body (1 to {bodyMax} characters).',
  },
  zh_CN: {
    InboxMessageNotFound: '消息不存在。',
    InboxMessageUnreadSensitive: '未读的敏感操作消息不能删除，请先阅读。',
    InboxMessageKept: '邮箱变更消息在收到后 {days} 天内保留，暂不能删除。',
    InboxPageTokenInvalid: '分页标识无效，请重新加载列表。',
    InboxNoticeInvalid: '通知需要标题（1 到 {titleMax} 个字符）和正文（1 到 {bodyMax} 个字符）。',
  },
});

declare module '../../../server/i18n/index' {
  /** This slice's codes are valid `AppError` codes wherever the slice is compiled in. */
  interface PluginMessageCodes {
    notifications: keyof typeof messages.en_US;
  }
}
