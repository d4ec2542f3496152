import { Suspense, type ReactNode } from 'react';

/**
 * Content that a painted page hydrates in a commit of its own. React hydrates a server-rendered Suspense boundary in
 * a later pass than what surrounds it, and commits it on its own: a part whose commit is heavy (antd's Table measures
 * its width and scrollbar in layout effects and renders once more at once) then takes a task of its own instead of
 * lengthening the page's. Rendered in the browser (a page the app navigated to) it changes nothing; nothing in it may
 * suspend, or the part would be blank meanwhile.
 */
export function HydratedApart({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}
