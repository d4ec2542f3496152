import { PagePlaceholder } from '../../../src/core/ui/PagePlaceholder';

/** Placeholder of the e-mail verification landing page until the profile issue lands. */
export default function EmailVerifyPage() {
  return <PagePlaceholder titleId="profile.emails.title" />;
}
