import { defineServerMessages } from '../../../server/i18n/index';

/** Error codes of sign-in and password change, in both languages the service answers in. */
export const messages = defineServerMessages({
  en_US: {
    AccountOrPasswordIncorrect: 'Account or password incorrect.',
    AccountLocked: 'The account is locked for 1 hour because of too many failed attempts.',
    PasswordSameAsOld: 'The new password must differ from the old one.',
    OldPasswordRequired: 'Please enter the current password.',
    OldPasswordIncorrect: 'The current password is incorrect.',
  },
  zh_CN: {
    AccountOrPasswordIncorrect: '账号或密码错误。',
    AccountLocked: '失败次数过多，账号已被锁定 1 小时。',
    PasswordSameAsOld: '新密码不能与旧密码相同。',
    OldPasswordRequired: '请输入当前密码。',
    OldPasswordIncorrect: '当前密码错误。',
  },
});

declare module '../../../server/i18n/index' {
  /** This slice's codes are valid `AppError` codes wherever the slice is compiled in. */
  interface PluginMessageCodes {
    login: keyof typeof messages.en_US;
  }
}
