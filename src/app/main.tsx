import { editionPlugins } from '@edition-plugins';
import { createRoot } from 'react-dom/client';
import { edition } from '../core/edition';
import { localeTag, resolveLocale } from '../core/i18n/locale';
import { readPageConfig } from '../core/page-config';
import { createRegistry } from '../core/plugin';
import { configureRequestClient } from '../core/request';
import { createRootStore } from '../core/stores/root';
import { App } from './App';
import { startAppTracking } from './tracking';
import './global.css';

const registry = createRegistry(editionPlugins);
const config = readPageConfig();
const client = configureRequestClient({
  onUnauthorized: () => {
    const next = encodeURIComponent(window.location.pathname + window.location.search);
    window.location.assign(`${edition.paths.relogin}?next=${next}`);
  },
});
const locale = resolveLocale(document.cookie, edition.locale.default);
document.documentElement.lang = localeTag(locale, 'html');
const stores = createRootStore(registry.stores, client, locale, (session) => startAppTracking(session, client));
const container = document.getElementById('container');
if (container) createRoot(container).render(<App registry={registry} stores={stores} nonce={config.nonce} />);
