import { errorCodeOf, type RequestError } from './request/errors';

/**
 * Why the current organisation's pages are out of reach while personal settings keep working. The names are the
 * shell's error-page types (`/users/errors?type=…`), so a notice and its full page are one and the same.
 */
export type OrganizationNotice =
  'no-org' | 'ip-restricted' | 'license-expired' | 'order-expired' | 'second-factor-required' | 'org-unreachable';

/** Service codes of the organisation policies (raised for any call made in an organisation's context). */
export const ORGANIZATION_POLICY_CODES = {
  /** The client address is outside the organisation's IP whitelist. */
  ipRestricted: 'OrganizationIpRestricted',
  /** The organisation's licence has expired. */
  licenceExpired: 'OrganizationLicenceExpired',
  /** The standard-edition order has expired. */
  orderExpired: 'OrganizationOrderExpired',
  /** The organisation requires a second factor the member has not set up (and its grace has passed). */
  secondFactorRequired: 'OrganizationSecondFactorRequired',
  /** The user is not (or no longer) a member of the organisation. */
  noPermission: 'NoOrganizationPermission',
  /** The organisation does not exist, or looks so to a non-member. */
  notFound: 'OrganizationNotFound',
} as const;

const NOTICE_BY_CODE: Readonly<Record<string, OrganizationNotice>> = {
  [ORGANIZATION_POLICY_CODES.ipRestricted]: 'ip-restricted',
  [ORGANIZATION_POLICY_CODES.licenceExpired]: 'license-expired',
  [ORGANIZATION_POLICY_CODES.orderExpired]: 'order-expired',
  [ORGANIZATION_POLICY_CODES.secondFactorRequired]: 'second-factor-required',
  [ORGANIZATION_POLICY_CODES.noPermission]: 'org-unreachable',
  [ORGANIZATION_POLICY_CODES.notFound]: 'org-unreachable',
};

/** Where a member sets up a second factor (the security page): the way out of the `second-factor-required` notice. */
export const SECURITY_PAGE = '/users/settings/security';

/**
 * The notice an organisation-scoped failure calls for: a policy refusal (IP, licence, order, second factor) or a lost membership;
 * undefined for anything else (a server or network failure stays a failure the user can retry).
 */
export function organizationNoticeOf(error: RequestError): OrganizationNotice | undefined {
  return organizationNoticeOfCode(errorCodeOf(error));
}

/** The notice of a service error code (as the page's bootstrap carries it); undefined when it is not a policy one. */
export function organizationNoticeOfCode(code: string | null | undefined): OrganizationNotice | undefined {
  return code && Object.hasOwn(NOTICE_BY_CODE, code) ? NOTICE_BY_CODE[code] : undefined;
}
