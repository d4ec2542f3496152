import { defineServerMessages } from '../../../server/i18n/index';

/** Error codes of the artifact-repository credential, in both languages the service answers in. */
export const messages = defineServerMessages({
  en_US: {
    PackagesNotInstalled: 'The artifact repository is not installed in the current organization.',
    PackagesCredentialPasswordUnset: 'No artifact repository password has been set yet.',
    PackagesCredentialsInvalid: 'Wrong artifact repository username or password.',
    PackagesPasswordNotYet:
      'The new artifact repository password is accepted 10 seconds after it was reset. Please try again in a moment.',
    PackagesTooManyFailures:
      'Too many wrong artifact repository passwords from this address or for this username. Please try again later.',
  },
  zh_CN: {
    PackagesNotInstalled: '当前企业未开通制品仓库。',
    PackagesCredentialPasswordUnset: '尚未设置制品仓库密码。',
    PackagesCredentialsInvalid: '制品仓库用户名或密码错误。',
    PackagesPasswordNotYet: '新的制品仓库密码在重置 10 秒后生效，请稍后再试。',
    PackagesTooManyFailures: '来自该地址或针对该用户名的制品仓库密码错误次数过多，请稍后再试。',
  },
});

declare module '../../../server/i18n/index' {
  /** This slice's codes are valid `AppError` codes wherever the slice is compiled in. */
  interface PluginMessageCodes {
    'packages-credential': keyof typeof messages.en_US;
  }
}
