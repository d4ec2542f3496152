import { describe, expect, it } from 'vitest';
import { createRegistry, definePlugin, type PageLoader } from '../core/plugin';
import type { StoreName } from '../core/stores/root';
import { lazyLoaded } from '../core/ui/lazyLoaded';
import { fakeBackend } from '../../tests/kit/fake-backend';
import { renderInOnePass, rootStoreWithPageData } from '../../tests/kit/web';
import { preloadRoute } from './App';

const loader = (text: string): PageLoader => {
  const load: PageLoader = async () => ({ default: () => <p>{text}</p> });
  return load;
};

describe('preloadRoute', () => {
  // Fresh loaders per test: a loaded module is remembered by its loader for the whole run.
  const makeRegistry = () =>
    createRegistry([
      definePlugin({
        id: 'demo',
        messages,
        settingsSections: [{ key: 'demo', messageId: 'demo.t', load: loader('Section') }],
        routes: [
          { path: '/users/demo', load: loader('Route') },
          { path: '/users/bare', frame: 'bare', load: loader('Bare') },
        ],
        stores: { demoStore: async () => ({ default: () => ({ name: 'demo' }) }) } as never,
      }),
      definePlugin({
        id: 'bell',
        messages,
        headerItems: [{ key: 'bell', load: loader('Bell') }],
        stores: { bellStore: async () => ({ default: () => ({ name: 'bell' }) }) } as never,
      }),
    ]);
  const messages = { zh_CN: {}, en_US: {} };
  const storeStatus = (stores: ReturnType<typeof rootStoreWithPageData>, name: string) =>
    (stores.store(name as StoreName) as Promise<unknown> & { status?: string }).status;

  it("readies a settings section, the signed-in top bar's controls and their plugins' stores for one pass", async () => {
    const registry = makeRegistry();
    const stores = rootStoreWithPageData(registry.stores, fakeBackend({}));
    await preloadRoute(registry, '/users/settings/demo', { stores, signedIn: true });
    expect(renderInOnePass(lazyLoaded(registry.section('demo')!.load))).toContain('Section');
    expect(renderInOnePass(lazyLoaded(registry.headerItems[0].load))).toContain('Bell');
    expect(storeStatus(stores, 'demoStore')).toBe('fulfilled');
    expect(storeStatus(stores, 'bellStore')).toBe('fulfilled');
  });

  it('leaves out the top bar of a bare page and of a visitor without a session', async () => {
    const registry = makeRegistry();
    const stores = rootStoreWithPageData(registry.stores, fakeBackend({}));
    await preloadRoute(registry, '/users/bare', { stores, signedIn: true });
    expect(renderInOnePass(lazyLoaded(registry.routes[1].load))).toContain('Bare');
    expect(renderInOnePass(lazyLoaded(registry.headerItems[0].load))).toContain('waiting');
    expect(storeStatus(stores, 'bellStore')).toBeUndefined();
    await preloadRoute(registry, '/users/demo', { stores, signedIn: false });
    expect(renderInOnePass(lazyLoaded(registry.routes[0].load))).toContain('Route');
  });
});
