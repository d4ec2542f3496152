import { SectionPlaceholder } from '../../../src/core/ui/SectionPlaceholder';

/** Placeholder until this section's own issue lands: names the section, shows no data. */
export default function ThirdPartyPage() {
  return <SectionPlaceholder titleId="third-party.sidebar.title" />;
}
