import { defineServerMessages } from '../../../server/i18n/index';

/** Error codes of sign-in and password change, in both languages the service answers in. */
export const messages = defineServerMessages({
  en_US: {
    AccountOrPasswordIncorrect: 'Account or password incorrect.',
    AccountLocked: 'The account is locked for 1 hour because of too many failed attempts.',
    PasswordSameAsOld: 'The new password must differ from the old one.',
    OldPasswordRequired: 'Please enter the current password.',
    OldPasswordIncorrect: 'The current password is incorrect.',
    FirstPasswordCodeRequired:
      'To set a password, enter the code sent to your current email (send one from the password dialog).',
    FirstPasswordCodeIncorrect: 'The code is incorrect or has expired; send a new one.',
    FirstPasswordDirectoryPasswordRequired:
      'To set a password, enter the password you sign in with through your directory (LDAP or Windows AD).',
    FirstPasswordDirectoryPasswordIncorrect: 'The directory password is incorrect.',
    DirectoryNotEnabled: 'Sign-in through this directory is not enabled.',
    DirectoryUnavailable: 'The directory cannot be reached. Please try again later.',
    DirectoryAccountConflict:
      'An account with this name already exists and is not linked to the directory. Sign in with its password.',
    PendingBindNotFound: 'No third-party account is waiting to be linked in this browser, or the wait has expired.',
    ThirdPartyAccountBoundToOther: 'This third-party account is already linked to another account.',
    SecondFactorWrong: 'The code or passkey was not accepted. Please try again.',
    SecondFactorStepExpired: 'The sign-in has expired. Please sign in again.',
    PasskeyNotRecognised: 'This passkey could not sign you in. Try another one or sign in with your password.',
  },
  zh_CN: {
    AccountOrPasswordIncorrect: '账号或密码错误。',
    AccountLocked: '失败次数过多，账号已被锁定 1 小时。',
    PasswordSameAsOld: '新密码不能与旧密码相同。',
    OldPasswordRequired: '请输入当前密码。',
    OldPasswordIncorrect: '当前密码错误。',
    FirstPasswordCodeRequired: '设置密码需要输入发送到你当前邮箱的验证码（可在设置密码的对话框中发送）。',
    FirstPasswordCodeIncorrect: '验证码不正确或已过期，请重新发送。',
    FirstPasswordDirectoryPasswordRequired: '设置密码需要输入你通过目录服务（LDAP 或 Windows AD）登录时使用的密码。',
    FirstPasswordDirectoryPasswordIncorrect: '目录密码不正确。',
    DirectoryNotEnabled: '未启用该目录登录。',
    DirectoryUnavailable: '无法连接目录服务，请稍后重试。',
    DirectoryAccountConflict: '已存在同名账号且未关联该目录，请使用该账号的密码登录。',
    PendingBindNotFound: '当前浏览器中没有等待绑定的第三方账号，或已过期。',
    ThirdPartyAccountBoundToOther: '该第三方账号已绑定其他账号。',
    SecondFactorWrong: '验证码或通行密钥验证未通过，请重试。',
    SecondFactorStepExpired: '登录已过期，请重新登录。',
    PasskeyNotRecognised: '无法使用该通行密钥登录，请换一个通行密钥或使用密码登录。',
  },
});

declare module '../../../server/i18n/index' {
  /** This slice's codes are valid `AppError` codes wherever the slice is compiled in. */
  interface PluginMessageCodes {
    login: keyof typeof messages.en_US;
  }
}
