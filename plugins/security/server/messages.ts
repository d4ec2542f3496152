import { defineServerMessages } from '../../../server/i18n/index';

/** Error codes of the security page's calls (the second factor's too), in both languages the service answers in. */
export const messages = defineServerMessages({
  en_US: {
    SessionNotFound: 'This session has already ended.',
    SessionIsCurrent: 'This is the session you are using now; sign out to end it.',
    TrustedBrowserNotFound: 'This browser is no longer trusted.',
    HistoryCursorInvalid: 'This page of the history is no longer available; start from the first page.',
    TotpCodeInvalid:
      'That code is not right. Type the code your authenticator app shows now (check that the phone’s time is set automatically).',
    TotpNotStarted: 'No authenticator app is waiting to be confirmed; start setting it up again.',
    TotpNotFound: 'No authenticator app is set up.',
    PasskeyNotVerified:
      'The passkey could not be verified, so it was not added. Try again from this page; if it fails again, try another browser or key.',
    PasskeyLimit: 'You can have at most {max} passkeys; remove one you no longer use first.',
    PasskeyNotFound: 'This passkey no longer exists.',
    RecoveryCodesNoFactor: 'Recovery codes come with a second factor: add an authenticator app or a passkey first.',
    SecondFactorRequiredByOrganization:
      'The organization {org} requires a second factor of its members: add another authenticator app or passkey before removing this one.',
  },
  zh_CN: {
    SessionNotFound: '该会话已结束。',
    SessionIsCurrent: '这是你当前正在使用的会话，请通过退出登录结束它。',
    TrustedBrowserNotFound: '该浏览器已不再受信任。',
    HistoryCursorInvalid: '该页历史记录已失效，请从第一页重新查看。',
    TotpCodeInvalid: '验证码不正确。请输入身份验证器应用当前显示的验证码（并确认手机时间为自动设置）。',
    TotpNotStarted: '没有等待确认的身份验证器应用，请重新开始设置。',
    TotpNotFound: '尚未设置身份验证器应用。',
    PasskeyNotVerified: '通行密钥验证未通过，未能添加。请在本页重试；如仍失败，请换一个浏览器或密钥。',
    PasskeyLimit: '最多只能添加 {max} 个通行密钥，请先移除不再使用的。',
    PasskeyNotFound: '该通行密钥已不存在。',
    RecoveryCodesNoFactor: '恢复码需配合两步验证使用：请先添加身份验证器应用或通行密钥。',
    SecondFactorRequiredByOrganization:
      '企业 {org} 要求成员开启两步验证：请先添加其他身份验证器应用或通行密钥，再移除此项。',
  },
});

declare module '../../../server/i18n/index' {
  /** This slice's codes are valid `AppError` codes wherever the slice is compiled in. */
  interface PluginMessageCodes {
    security: keyof typeof messages.en_US;
  }
}
