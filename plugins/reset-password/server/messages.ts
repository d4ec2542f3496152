import { defineServerMessages } from '../../../server/i18n/index';

/** Error codes of password recovery, in both languages the service answers in. */
export const messages = defineServerMessages({
  en_US: {
    RecoveryPageInvalid: 'This page is no longer valid. Please verify again.',
    VerificationCodeIncorrect: 'The verification code is incorrect ({remaining} tries left).',
    VerificationCodeExhausted: 'Verification code incorrect. Please get a new one.',
    RecoveryMailTooFrequent: 'Too many emails. Please try again in one minute.',
    RecoveryMailFailed: 'The verification email could not be sent. Please try again.',
    RecoveryFactorWrong: 'The code or passkey was not accepted. Please try again.',
    RecoveryAccountLocked: 'The account is locked for 1 hour because of too many failed attempts.',
  },
  zh_CN: {
    RecoveryPageInvalid: '页面已失效，请重新验证。',
    VerificationCodeIncorrect: '验证码错误（还剩 {remaining} 次）。',
    VerificationCodeExhausted: '验证码错误，请重新获取。',
    RecoveryMailTooFrequent: '邮件发送过于频繁，请一分钟后再试。',
    RecoveryMailFailed: '验证邮件发送失败，请重试。',
    RecoveryFactorWrong: '验证码或通行密钥验证未通过，请重试。',
    RecoveryAccountLocked: '失败次数过多，账号已被锁定 1 小时。',
  },
});

declare module '../../../server/i18n/index' {
  /** This slice's codes are valid `AppError` codes wherever the slice is compiled in. */
  interface PluginMessageCodes {
    'reset-password': keyof typeof messages.en_US;
  }
}
