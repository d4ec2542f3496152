import { defineServerMessages } from '../../../server/i18n/index';

/** Error codes of the security page's calls, in both languages the service answers in. */
export const messages = defineServerMessages({
  en_US: {
    SessionNotFound: 'This session has already ended.',
    SessionIsCurrent: 'This is the session you are using now; sign out to end it.',
    TrustedBrowserNotFound: 'This browser is no longer trusted.',
    HistoryCursorInvalid: 'This page of the history is no longer available; start from the first page.',
  },
  zh_CN: {
    SessionNotFound: '该会话已结束。',
    SessionIsCurrent: '这是你当前正在使用的会话，请通过退出登录结束它。',
    TrustedBrowserNotFound: '该浏览器已不再受信任。',
    HistoryCursorInvalid: '该页历史记录已失效，请从第一页重新查看。',
  },
});

declare module '../../../server/i18n/index' {
  /** This slice's codes are valid `AppError` codes wherever the slice is compiled in. */
  interface PluginMessageCodes {
    security: keyof typeof messages.en_US;
  }
}
