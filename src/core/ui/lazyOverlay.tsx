import { lazy, Suspense, useState, type ComponentType } from 'react';

/**
 * A drawer or dialog whose code loads when it first opens, not with its page: a list page's first view needs its
 * list, while its forms bring antd's Form, Radio, Drawer or Modal and the date picker. Until it first opens it renders
 * nothing (a closed antd overlay renders nothing either); after that it stays mounted, so it closes with its
 * animation and keeps what a closed antd overlay keeps.
 *
 * `load` answers the component, e.g. `() => import('./TokenFormDrawer').then((m) => m.TokenFormDrawer)`; name its
 * chunk (`plugin-<id>-<form>`). Nothing is fetched ahead: evaluating a form's modules while the page settles is main-
 * thread work a phone feels, and a click waits only for one small chunk.
 */
export function lazyOverlay<P extends { open: boolean }>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Overlay = lazy(() => load().then((component) => ({ default: component })));
  function LazyOverlay(props: P) {
    const [opened, setOpened] = useState(props.open);
    if (props.open && !opened) setOpened(true);
    if (!opened) return null;
    return (
      <Suspense fallback={null}>
        <Overlay {...props} />
      </Suspense>
    );
  }
  return LazyOverlay;
}
