import { defineServerMessages } from '../../../server/i18n/index';

/** Error codes of personal access token management, in both languages the service answers in. */
export const messages = defineServerMessages({
  en_US: {
    AccessTokenNotFound: 'The personal access token does not exist.',
    AccessTokenNameRequired: 'Please enter a name.',
    AccessTokenDescriptionRequired: 'Please enter a description (1 to 200 characters).',
    AccessTokenExpired:
      'The personal access token has expired and can no longer be edited or regenerated; re-create it from the list.',
    AccessTokenNotExpired: 'The personal access token has not expired yet; regenerate it instead.',
    AccessTokenReplaced: 'The personal access token has already been regenerated; use the new one.',
    AccessTokenNoScopeLeft: 'None of the token’s scopes is offered any more; create a new token.',
    AccessTokenExpiryInvalid: 'The expiration date must be a valid date in the future.',
    AccessTokenScopeRequired: 'Select at least one scope.',
    AccessTokenScopeUnknown: 'Unknown personal access token scope "{scope}".',
    AccessTokenScopeReadOnly: 'The scope "{scope}" can only be granted read-only.',
    AccessTokenLimitReached: 'You can hold at most {max} personal access tokens; delete unused ones first.',
  },
  zh_CN: {
    AccessTokenNotFound: '访问令牌不存在。',
    AccessTokenNameRequired: '请输入名称。',
    AccessTokenDescriptionRequired: '请输入描述（1 到 200 个字符）。',
    AccessTokenExpired: '访问令牌已过期，不能再编辑或重新生成，请在列表中重新创建。',
    AccessTokenNotExpired: '访问令牌尚未过期，请改用“重新生成”。',
    AccessTokenReplaced: '该访问令牌已重新生成，请使用新令牌。',
    AccessTokenNoScopeLeft: '该令牌的权限范围均已不再提供，请新建令牌。',
    AccessTokenExpiryInvalid: '过期时间必须是晚于当前时间的有效时间。',
    AccessTokenScopeRequired: '请至少选择一个权限范围。',
    AccessTokenScopeUnknown: '未知的访问令牌权限范围“{scope}”。',
    AccessTokenScopeReadOnly: '权限范围“{scope}”只能授予只读权限。',
    AccessTokenLimitReached: '最多只能持有 {max} 个访问令牌，请先删除不用的令牌。',
  },
});

declare module '../../../server/i18n/index' {
  /** This slice's codes are valid `AppError` codes wherever the slice is compiled in. */
  interface PluginMessageCodes {
    'access-tokens': keyof typeof messages.en_US;
  }
}
