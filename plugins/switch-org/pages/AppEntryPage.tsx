import { PagePlaceholder } from '../../../src/core/ui/PagePlaceholder';

/** Placeholder until this page's own issue lands: names the page, shows no data. */
export default function AppEntryPage() {
  return <PagePlaceholder titleId="switch-org.entry.title" />;
}
