import { edition } from '../../../src/core/edition';
import { LegacyTokensModal } from '../components/LegacyTokensModal';
import { TokensPanel } from '../components/TokensPanel';

/** The personal-access-token section; editions with the legacy flag show the "v1" modal screen instead. */
export default function AccessTokensPage() {
  return edition.features.legacyTokens ? <LegacyTokensModal /> : <TokensPanel />;
}
