import type { Tracker } from './tracker';

/** Wires a tracker to the window: runtime errors, unhandled rejections, flush on reconnect and page hide. Returns an uninstall. */
export function installBrowserTracking(
  tracker: Tracker,
  target: Window | undefined = typeof window === 'undefined' ? undefined : window,
): () => void {
  if (!target) return () => {};
  const onError = (e: ErrorEvent) => tracker.error({ message: e.message, stack: e.error?.stack, filename: e.filename });
  const onRejection = (e: PromiseRejectionEvent) =>
    tracker.error(e.reason instanceof Error ? e.reason : { message: String(e.reason) });
  const onFlush = () => void tracker.flush();
  const onVisibility = () => {
    if (target.document?.visibilityState === 'hidden') onFlush();
  };
  try {
    target.addEventListener('error', onError);
    target.addEventListener('unhandledrejection', onRejection);
    target.addEventListener('online', onFlush);
    target.addEventListener('pagehide', onFlush);
    target.document?.addEventListener('visibilitychange', onVisibility);
  } catch {
    // tracking must never break the app
  }
  return () => {
    try {
      target.removeEventListener('error', onError);
      target.removeEventListener('unhandledrejection', onRejection);
      target.removeEventListener('online', onFlush);
      target.removeEventListener('pagehide', onFlush);
      target.document?.removeEventListener('visibilitychange', onVisibility);
    } catch {
      // ignore
    }
  };
}
