// The browser's side of a server-rendered first screen (server/html/first-screen.ts): before hydration, the styles the
// service moved into a sheet go back on their elements; after it, what the visitor did before the app was there
// (typed into a field, submitted a form) reaches the app.
import {
  CLICK_PENDING_ATTR,
  HYDRATED_ATTR,
  HYDRATING_ATTR,
  PRESS_PENDING_ATTR,
  STYLE_KEY_ATTR,
  STYLE_SHEET_ID,
  SUBMIT_PENDING_ATTR,
} from '../../schemas/first-screen';

/**
 * Moves the first screen's styles from the service's sheet into each element's own style (through the CSSOM, which
 * the CSP allows), so the DOM is what the app renders: its later style updates then replace them as they would
 * inline styles.
 */
export function restoreFirstScreenStyles(doc: Document): void {
  const sheet = (doc.getElementById(STYLE_SHEET_ID) as HTMLStyleElement | null)?.sheet;
  const byKey = new Map<string, CSSStyleDeclaration>();
  for (const rule of Array.from(sheet?.cssRules ?? [])) {
    const key = rule instanceof CSSStyleRule ? /"(\d+)"\]$/.exec(rule.selectorText)?.[1] : undefined;
    if (key !== undefined) byKey.set(key, (rule as CSSStyleRule).style);
  }
  for (const el of Array.from(doc.querySelectorAll<HTMLElement>(`[${STYLE_KEY_ATTR}]`))) {
    const style = byKey.get(el.getAttribute(STYLE_KEY_ATTR) ?? '');
    if (style) for (const name of Array.from(style)) el.style.setProperty(name, style.getPropertyValue(name));
    el.removeAttribute(STYLE_KEY_ATTR);
  }
}

const nativeValue = (el: HTMLInputElement | HTMLTextAreaElement) =>
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el) as object, 'value')?.set;

/**
 * Called as the app starts hydrating the first screen: from now on React takes the visitor's events itself (it
 * hydrates the part acted on at once), so the page stops holding them; a press that began before and is still going
 * on is completed when it ends.
 */
export function beginHandover(container: HTMLElement): void {
  container.setAttribute(HYDRATING_ATTR, '');
  const pressed = container.querySelector<HTMLElement>(`[${PRESS_PENDING_ATTR}]`);
  if (pressed) {
    pressed.removeAttribute(PRESS_PENDING_ATTR);
    completePress(pressed);
  }
}

/**
 * Hands the first screen over to the hydrated app: text typed into its fields before the app was there reaches the
 * app's form state (an input event the app sees as a change), and so do files picked (a change event); then a form
 * submitted meanwhile is submitted again and the last thing clicked (a tab, a button) is clicked again.
 */
export function completeHandover(container: HTMLElement): void {
  if (container.hasAttribute(HYDRATED_ATTR)) return;
  for (const el of Array.from(container.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea'))) {
    if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) continue;
    if (el instanceof HTMLInputElement && el.type === 'file') {
      // A file picked before the app was there (an avatar): a file field's value cannot be set, but the app reads
      // the picked files from the field when it hears of a change.
      if (el.files?.length) el.dispatchEvent(new Event('change', { bubbles: true }));
      continue;
    }
    const typed = el.value;
    if (typed === el.defaultValue) continue;
    const setNative = nativeValue(el);
    if (!setNative) continue;
    // React tracks a field's last value through its own `value` property: through it the field reads as empty, then
    // the typed text is put back past it, so the input event is a change.
    el.value = '';
    setNative.call(el, typed);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }
  container.setAttribute(HYDRATED_ATTR, '');
  container.removeAttribute(HYDRATING_ATTR);
  for (const form of Array.from(container.querySelectorAll<HTMLFormElement>(`form[${SUBMIT_PENDING_ATTR}]`))) {
    form.removeAttribute(SUBMIT_PENDING_ATTR);
    form.requestSubmit();
  }
  const clicked = container.querySelector<HTMLElement>(`[${CLICK_PENDING_ATTR}]`);
  if (clicked) {
    clicked.removeAttribute(CLICK_PENDING_ATTR);
    pressAgain(clicked);
  }
}

/** True while the handover presses an element again (its events are not the visitor's). */
let replaying = false;

/**
 * Presses `el` again as a whole, not only clicks it: some controls act on mousedown (a select opens there). Once the
 * app is idle: right after the hydration a select still ignores a press (its open state settles in the renders its
 * effects start; a press 50 ms after the commit was lost, one 100 ms after or at idle time opened it).
 */
function pressAgain(el: HTMLElement): void {
  const press = () => {
    replaying = true;
    try {
      for (const type of ['mousedown', 'mouseup', 'click'])
        el.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true, view: window, button: 0 }));
    } finally {
      replaying = false;
    }
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(press, { timeout: 1000 });
  else setTimeout(press, 200);
}

/**
 * A press that began on `el` before the app started hydrating and has not ended: the app saw no mousedown, so the
 * click that ends it would not open a select. That click is held from the app and `el` pressed again as a whole; a
 * click that ends elsewhere (the pointer was dragged away) or a new press lets it go.
 */
function completePress(el: HTMLElement): void {
  const doc = el.ownerDocument;
  const done = () => {
    doc.removeEventListener('click', onClick, true);
    doc.removeEventListener('mousedown', onMouseDown, true);
  };
  const onMouseDown = () => {
    if (!replaying) done();
  };
  function onClick(e: MouseEvent) {
    if (replaying) return;
    done();
    if (!(e.target instanceof Node) || !el.contains(e.target)) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    pressAgain(el);
  }
  doc.addEventListener('click', onClick, true);
  doc.addEventListener('mousedown', onMouseDown, true);
}
