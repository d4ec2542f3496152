import { SectionPlaceholder } from '../../../src/core/ui/SectionPlaceholder';

/** Placeholder until this section's own issue lands: names the section, shows no data. */
export default function PackagesCredentialPage() {
  return <SectionPlaceholder titleId="packages-credential.sidebar.title" />;
}
