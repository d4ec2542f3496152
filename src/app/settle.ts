// What the app places only after it rendered (a tab's ink bar, a fixed table column's shadow, the ring of a field the
// page focused on load) would otherwise slide or fade into place at every page's start: a few hundred milliseconds of
// animation frames that a phone draws while it is busiest. Until the page has settled, `<body data-settling>` (set in
// index.html) turns those transitions off (global.css); the app removes it shortly after its first page committed.

/** The body attribute global.css and index.html name. */
export const SETTLING_ATTR = 'data-settling';

/** How long after the first page's commit the page's own measurements (ink bar, table shadows) are given to land. */
export const SETTLE_MS = 400;

/** Ends the settling phase of `doc` once its first page committed; later calls do nothing more. */
export function settleAfterCommit(doc: Document = document, delayMs = SETTLE_MS): void {
  if (!doc.body.hasAttribute(SETTLING_ATTR)) return;
  setTimeout(() => doc.body.removeAttribute(SETTLING_ATTR), delayMs);
}
