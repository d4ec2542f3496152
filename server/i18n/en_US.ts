/** Core server messages in English (US); the key set is the core's error codes (slices add theirs). */
export const en_US = {
  InvalidParameter: 'Parameter invalid: {detail}',
  InvalidJson: 'The request body is not valid JSON.',
  PayloadTooLarge: 'The request body is too large.',
  UnsupportedMediaType: 'Unsupported content type.',
  NotFound: 'The resource does not exist.',
  MethodNotAllowed: 'Method not allowed.',
  Unauthorized: 'Please sign in first.',
  Forbidden: 'You do not have permission to do this.',
  XhrRequired: 'The request was refused: it must be sent by the application (X-Requested-With).',
  CsrfRejected: 'The request was refused: the security token is missing or invalid. Reload the page and retry.',
  PasswordTooShort: 'The password must be at least 8 characters long.',
  PasswordCharacters: 'The password may only contain letters, digits and the special characters @#$%^&*.',
  PasswordComposition: 'The password must combine letters, digits and at least one special character (@#$%^&*).',
  TokenInvalid: 'The access token is invalid, expired or deleted.',
  TokenInQuery: 'Send the access token in the x-yunxiao-token or Authorization header, never in the URL.',
  InsufficientScope: 'The access token lacks the permission "{scope}".',
  OrganizationNotFound: 'The organization does not exist.',
  NoOrganizationPermission: 'You have no permission for this organization.',
  OrganizationIpRestricted:
    'IP access is restricted; contact the administrator to change security settings in the console.',
  OrganizationLicenceExpired: "The organization's licence has expired; contact the administrator to renew it.",
  OrganizationOrderExpired: "The organization's order has expired; renew it in the console to continue.",
  TooManyRequests: 'Too many requests, please try again later.',
  TooManyRequestsMinute: 'Too many requests, please try again in one minute.',
  CaptchaRequired: 'Please complete the slider verification first.',
  CaptchaInvalid: 'The slider verification has expired or was already used. Please slide again.',
  CaptchaFailed: 'Verification failed, please try again ({remaining} tries left).',
  CaptchaExpired: 'This puzzle has expired. Please try a new one.',
  AccountNotExist: 'The account does not exist.',
  AccountNoEmail: 'No e-mail is bound to this account. Please contact the administrator.',
  MailServiceNotConfigured: 'The e-mail service is not configured for the enterprise.',
  SystemError: 'System exception, please try again.',
} as const;

/** An error code of the service core; both core catalogues define every one. */
export type CoreCode = keyof typeof en_US;
