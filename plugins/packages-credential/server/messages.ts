import { defineServerMessages } from '../../../server/i18n/index';

/** Error codes of the artifact-repository credential, in both languages the service answers in. */
export const messages = defineServerMessages({
  en_US: {
    PackagesNotInstalled: 'The artifact repository is not installed in the current organization.',
    PackagesCredentialPasswordUnset: 'No artifact repository password has been set yet.',
  },
  zh_CN: {
    PackagesNotInstalled: '当前企业未开通制品仓库。',
    PackagesCredentialPasswordUnset: '尚未设置制品仓库密码。',
  },
});

declare module '../../../server/i18n/index' {
  /** This slice's codes are valid `AppError` codes wherever the slice is compiled in. */
  interface PluginMessageCodes {
    'packages-credential': keyof typeof messages.en_US;
  }
}
