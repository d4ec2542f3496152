import { Button, Result } from 'antd';
import type { ResultProps } from 'antd';

type ResultStatusType = NonNullable<ResultProps['status']>;
import { FormattedMessage } from 'react-intl';
import { useSearchParams } from 'react-router-dom';
import { switchOrganizationUrl } from '../links';
import { SECURITY_PAGE } from '../../core/organization';
import { ErrorIllustration, isIllustrated } from './ErrorIllustration';

/** Every error page the product shows, by the `type` the service or a guard redirects with. */
export const ERROR_PAGES = {
  '404': { status: '404', title: 'shell.error.notFound.title', description: 'shell.error.notFound.description' },
  '500': { status: '500', title: 'shell.error.serverError.title', description: 'shell.error.serverError.description' },
  'bad-param': {
    status: 'warning',
    title: 'shell.error.badParam.title',
    description: 'shell.error.badParam.description',
  },
  'no-permission': {
    status: '403',
    title: 'shell.error.noPermission.title',
    description: 'shell.error.noPermission.description',
  },
  'org-mismatch': {
    status: 'warning',
    title: 'shell.error.orgMismatch.title',
    description: 'shell.error.orgMismatch.description',
  },
  'org-unreachable': {
    status: 'warning',
    title: 'shell.error.orgUnreachable.title',
    description: 'shell.error.orgUnreachable.description',
  },
  'no-org': { status: 'info', title: 'shell.error.noOrg.title', description: 'shell.error.noOrg.description' },
  'ip-restricted': {
    status: '403',
    title: 'shell.error.ipRestricted.title',
    description: 'shell.error.ipRestricted.description',
  },
  'license-expired': {
    status: 'warning',
    title: 'shell.error.licenseExpired.title',
    description: 'shell.error.licenseExpired.description',
  },
  'order-expired': {
    status: 'warning',
    title: 'shell.error.orderExpired.title',
    description: 'shell.error.orderExpired.description',
  },
  'second-factor-required': {
    status: 'warning',
    title: 'shell.error.secondFactorRequired.title',
    description: 'shell.error.secondFactorRequired.description',
  },
  'resource-not-in-org': {
    status: 'warning',
    title: 'shell.error.resourceNotInOrg.title',
    description: 'shell.error.resourceNotInOrg.description',
  },
} as const satisfies Record<string, { status: ResultStatusType; title: string; description: string }>;

/** A known error page type. */
export type ErrorPageType = keyof typeof ERROR_PAGES;

/** Pages whose way out is another organisation: they offer the chooser besides the way home. */
export const ORGANIZATION_PAGES: ReadonlySet<string> = new Set<ErrorPageType>([
  'no-org',
  'org-mismatch',
  'org-unreachable',
  'ip-restricted',
  'license-expired',
  'order-expired',
  'second-factor-required',
  'resource-not-in-org',
]);

/** Picks the page for a `type` parameter; anything unknown shows the 404 page. */
export function errorPageFor(type: string | null | undefined): (typeof ERROR_PAGES)[ErrorPageType] {
  return type && Object.hasOwn(ERROR_PAGES, type) ? ERROR_PAGES[type as ErrorPageType] : ERROR_PAGES['404'];
}

/** One error page; `type` comes from the props or the `?type=` parameter. */
export function ErrorPage({ type }: { type?: ErrorPageType }) {
  const [params] = useSearchParams();
  const kind = type ?? params.get('type');
  const page = errorPageFor(kind);
  const chooser = !!kind && ORGANIZATION_PAGES.has(kind);
  // The member can lift this one: the security page (personal, never refused) sets a factor up.
  const enrol = kind === 'second-factor-required';
  return (
    <Result
      // 404, 403 and 500 show our drawing in the theme's colours (antd's keeps a fixed blue).
      {...(isIllustrated(page.status)
        ? { status: 'info', icon: <ErrorIllustration status={page.status} /> }
        : { status: page.status })}
      data-testid="error-page"
      data-status={page.status}
      title={
        <h1 style={{ font: 'inherit', margin: 0 }}>
          <FormattedMessage id={page.title} />
        </h1>
      }
      subTitle={<FormattedMessage id={page.description} />}
      extra={[
        enrol && (
          <Button key="enrol" type="primary" href={SECURITY_PAGE} data-testid="error-second-factor">
            <FormattedMessage id="shell.org.secondFactor.setUp" />
          </Button>
        ),
        chooser && (
          <Button
            key="switch"
            type={enrol ? 'default' : 'primary'}
            href={switchOrganizationUrl()}
            data-testid="error-switch-org"
          >
            <FormattedMessage id="shell.org.choose" />
          </Button>
        ),
        <Button key="back" type={chooser ? 'default' : 'primary'} href="/users/settings">
          <FormattedMessage id="shell.error.back" />
        </Button>,
      ]}
    />
  );
}
