import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** A module's loader, e.g. `() => import('./Page')` (one function per module, kept: it is the module's key here). */
export type ModuleLoader<T = unknown> = () => Promise<{ default: T }>;

const loadedModules = new WeakMap<ModuleLoader, { default: unknown }>();

/** Loads a module and remembers it once it is here, so `lazyLoaded(load)` renders it without waiting. */
export function preload<M extends { default: unknown }>(load: () => Promise<M>): Promise<M> {
  return load().then((module) => {
    loadedModules.set(load, module);
    return module;
  });
}

/**
 * `React.lazy`, except that a module already loaded (through `preload`) renders in the same pass, instead of
 * suspending once for a promise that is already settled. On a painted page that matters: the hydration of each
 * lazy part would otherwise wait for a later pass, and until then a press on it is lost (React drops a discrete event
 * on a part it cannot hydrate at once).
 */
export function lazyLoaded<P>(load: ModuleLoader<ComponentType<P>>): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => {
    type Module = { default: ComponentType<P> };
    const module = loadedModules.get(load) as Module | undefined;
    // A thenable that answers at once: React reads the component from it in this very render.
    if (module) return { then: (resolve: (m: Module) => void) => resolve(module) } as Promise<Module>;
    return preload(load);
  });
}
