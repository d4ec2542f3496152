import { defineServerMessages } from '../../../server/i18n/index';

/** Error codes of the organisation and app calls of the switch-org slice, in both languages the service answers in. */
export const messages = defineServerMessages({
  en_US: {
    AppNotFound: 'The application is not installed in this organization.',
    HelpLinkNotFound: 'The help link does not exist.',
    MembersLookupTooMany: 'At most {max} users can be looked up at once.',
  },
  zh_CN: {
    AppNotFound: '该企业未安装此应用。',
    HelpLinkNotFound: '帮助链接不存在。',
    MembersLookupTooMany: '一次最多查询 {max} 个用户。',
  },
});

declare module '../../../server/i18n/index' {
  /** This slice's codes are valid `AppError` codes wherever the slice is compiled in. */
  interface PluginMessageCodes {
    'switch-org': keyof typeof messages.en_US;
  }
}
