import { editionPlugins } from '@edition-plugins';
import { createRoot } from 'react-dom/client';
import { createRegistry } from '../core/plugin';
import { App } from './App';

const registry = createRegistry(editionPlugins);
const container = document.getElementById('container');
if (container) createRoot(container).render(<App registry={registry} />);
