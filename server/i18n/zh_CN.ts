import type { CoreCode } from './en_US';

/** Core server messages in Simplified Chinese, the product's default language. */
export const zh_CN: Record<CoreCode, string> = {
  InvalidParameter: '参数无效：{detail}',
  InvalidJson: '请求内容不是合法的 JSON。',
  PayloadTooLarge: '请求内容过大。',
  UnsupportedMediaType: '不支持的内容类型。',
  NotFound: '资源不存在。',
  MethodNotAllowed: '不支持该请求方法。',
  Unauthorized: '请先登录。',
  Forbidden: '没有权限执行该操作。',
  XhrRequired: '请求被拒绝：必须由应用发起（X-Requested-With）。',
  CsrfRejected: '请求被拒绝：安全令牌缺失或无效，请刷新页面后重试。',
  PasswordTooShort: '密码长度至少 8 位。',
  PasswordCharacters: '密码只能包含字母、数字和特殊字符 @#$%^&*。',
  PasswordComposition: '密码必须包含字母、数字和至少一个特殊字符（@#$%^&*）。',
  TokenInvalid: '访问令牌无效、已过期或已删除。',
  TokenInQuery: '请通过 x-yunxiao-token 或 Authorization 请求头传递访问令牌，不要放在 URL 中。',
  InsufficientScope: '访问令牌缺少权限“{scope}”。',
  OrganizationNotFound: '组织不存在。',
  NoOrganizationPermission: '没有该组织的访问权限。',
  OrganizationIpRestricted: 'IP 访问受限，请联系管理员在控制台修改安全设置。',
  OrganizationLicenceExpired: '该组织的许可证已过期，请联系管理员续期。',
  OrganizationOrderExpired: '该组织的订单已过期，请在控制台续费后继续使用。',
  TooManyRequests: '请求过于频繁，请稍后再试。',
  SystemError: '系统异常，请重试。',
};
