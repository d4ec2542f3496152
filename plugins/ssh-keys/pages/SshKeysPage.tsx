import { SectionPlaceholder } from '../../../src/core/ui/SectionPlaceholder';

/** Placeholder until this section's own issue lands: names the section, shows no data. */
export default function SshKeysPage() {
  return <SectionPlaceholder titleId="ssh-keys.sidebar.title" />;
}
