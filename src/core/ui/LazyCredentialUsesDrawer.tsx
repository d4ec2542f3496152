import { lazyOverlay } from './lazyOverlay';

/**
 * The usage timeline drawer, loaded on its own chunk (core-credential-uses) when a list first opens it: a list's
 * first view carries none of it (src/core/ui/CredentialUsesDrawer.tsx).
 */
export const LazyCredentialUsesDrawer = lazyOverlay(() =>
  import(/* webpackChunkName: "core-credential-uses" */ './CredentialUsesDrawer').then((m) => m.CredentialUsesDrawer),
);
