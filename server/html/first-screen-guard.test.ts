// @vitest-environment happy-dom
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CLICK_PENDING_ATTR,
  HYDRATED_ATTR,
  HYDRATING_ATTR,
  PRESS_PENDING_ATTR,
  SUBMIT_PENDING_ATTR,
} from '../../schemas/first-screen';
import { firstScreenGuard } from './first-screen';

// The painted page's guard script, run in a DOM: what it holds and records before the app takes the page over.
beforeAll(() => {
  new Function(firstScreenGuard())();
});

afterEach(() => {
  document.body.innerHTML = '';
});

function page(attr = ''): HTMLElement {
  document.body.innerHTML =
    `<div id="container" ${attr}><form id="f"><button type="button" id="b"><span id="s">Next</span></button>` +
    '<input id="q" role="combobox" readonly><input id="t"><a id="a" href="#x">x</a></form></div>';
  return document.getElementById('container')!;
}
const el = (id: string) => document.getElementById(id)!;
const fire = (id: string, type: string) => {
  const e =
    type === 'submit' ? new Event(type, { cancelable: true }) : new MouseEvent(type, { bubbles: true, button: 0 });
  el(id).dispatchEvent(e);
  return e;
};
const marked = (attr: string) => Array.from(document.querySelectorAll(`[${attr}]`)).map((e) => e.id);

describe('the guard script of a painted page', () => {
  it('before the app: holds a submit, records the last click and a press whose click has not come', () => {
    page();
    expect(fire('f', 'submit').defaultPrevented).toBe(true);
    expect(marked(SUBMIT_PENDING_ATTR)).toEqual(['f']);
    fire('q', 'mousedown');
    expect(marked(PRESS_PENDING_ATTR)).toEqual(['q']);
    fire('q', 'click');
    expect(marked(PRESS_PENDING_ATTR)).toEqual([]);
    expect(marked(CLICK_PENDING_ATTR)).toEqual(['q']);
    fire('s', 'mousedown');
    expect(marked(PRESS_PENDING_ATTR)).toEqual(['s']);
    // What the browser does alone (a link, a field one types into) it leaves to the browser.
    fire('a', 'click');
    fire('t', 'mousedown');
    expect(marked(CLICK_PENDING_ATTR)).toEqual(['q']);
    expect(marked(PRESS_PENDING_ATTR)).toEqual(['s']);
  });

  for (const attr of [HYDRATING_ATTR, HYDRATED_ATTR])
    it(`leaves everything to the app once #container is ${attr}: it would be done twice`, () => {
      page(attr);
      expect(fire('f', 'submit').defaultPrevented).toBe(false);
      fire('b', 'mousedown');
      fire('b', 'click');
      expect([...marked(SUBMIT_PENDING_ATTR), ...marked(PRESS_PENDING_ATTR), ...marked(CLICK_PENDING_ATTR)]).toEqual(
        [],
      );
    });
});
