// What the service's server-rendered first screen (server/html/first-screen.ts) and the browser that takes it over
// (src/app/handover.ts) agree on. Plain constants: both sides import them.

/**
 * A server-rendered element's inline style, moved out of the HTML: the page CSP blocks `style` attributes, so each
 * distinct style becomes a rule of a nonce'd sheet, keyed by this attribute's value.
 */
export const STYLE_KEY_ATTR = 'data-fs-style';

/** The id of that sheet. */
export const STYLE_SHEET_ID = 'first-screen-styles';

/** Set on `#container` once the app took the server's first screen over (hydrated it). */
export const HYDRATED_ATTR = 'data-hydrated';

/**
 * Set on `#container` when the app starts hydrating the first screen. From then on React hydrates at once the part a
 * visitor acts on and hands it the event, so the page no longer holds submits or records clicks: it would have them
 * done twice (a wizard's "Next" pressed then asked two puzzles).
 */
export const HYDRATING_ATTR = 'data-hydrating';

/** Set on a form submitted before the app started hydrating; the app submits it again once it has taken over. */
export const SUBMIT_PENDING_ATTR = 'data-submit-pending';

/**
 * Set on the element last clicked before the app started hydrating (a tab, a button that is not a form's submit, a
 * select); the app presses it again once it has taken over. Links, labels and fields one types into need no app: left to the browser.
 */
export const CLICK_PENDING_ATTR = 'data-click-pending';

/**
 * Set on the element a press began on (the main button went down) before the app started hydrating, while its click
 * has not come: when the press ends after that, the app presses that element again as a whole, in place of the click
 * that ends it (a select opens on mousedown, which only the page saw).
 */
export const PRESS_PENDING_ATTR = 'data-press-pending';
