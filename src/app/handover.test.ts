import { act, createElement, useState, type ChangeEvent } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CLICK_PENDING_ATTR,
  HYDRATED_ATTR,
  PRESS_PENDING_ATTR,
  STYLE_KEY_ATTR,
  STYLE_SHEET_ID,
  SUBMIT_PENDING_ATTR,
} from '../../schemas/first-screen';
import { beginHandover, completeHandover, restoreFirstScreenStyles } from './handover';

// React's act() warns unless the test environment says it is one (@testing-library/react sets this when imported).
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

/** A `#container` holding `html`, as the service sent it. */
function container(html: string): HTMLElement {
  document.body.innerHTML = `<div id="container">${html}</div>`;
  return document.getElementById('container')!;
}

describe('restoreFirstScreenStyles', () => {
  it("puts each sheet rule's declarations back on the elements that carry its key, and drops the keys", () => {
    document.head.innerHTML =
      `<style id="${STYLE_SHEET_ID}">[${STYLE_KEY_ATTR}="0"]{margin-top:12px !important;text-align:right !important}` +
      `[${STYLE_KEY_ATTR}="1"]{color:red !important}</style>`;
    const root = container(
      `<div id="a" ${STYLE_KEY_ATTR}="0"><span id="b" ${STYLE_KEY_ATTR}="1">x</span>` +
        `<span id="c" ${STYLE_KEY_ATTR}="1">y</span></div>`,
    );
    restoreFirstScreenStyles(document);
    const a = document.getElementById('a')!;
    expect(a.style.marginTop).toBe('12px');
    expect(a.style.textAlign).toBe('right');
    expect(document.getElementById('b')!.style.color).toBe('red');
    expect(document.getElementById('c')!.style.color).toBe('red');
    expect(root.querySelectorAll(`[${STYLE_KEY_ATTR}]`)).toHaveLength(0);
  });

  it('drops a key without a rule, and every key when the sheet is missing, leaving other styles alone', () => {
    document.head.innerHTML = `<style id="${STYLE_SHEET_ID}">[${STYLE_KEY_ATTR}="0"]{color:red !important}</style>`;
    container(`<p id="p" ${STYLE_KEY_ATTR}="7">x</p>`);
    restoreFirstScreenStyles(document);
    const p = document.getElementById('p')!;
    expect(p.hasAttribute(STYLE_KEY_ATTR)).toBe(false);
    expect(p.getAttribute('style') ?? '').toBe('');

    document.head.innerHTML = '';
    container(`<p id="q" ${STYLE_KEY_ATTR}="0">x</p><p id="r">y</p>`);
    document.getElementById('r')!.style.color = 'blue';
    restoreFirstScreenStyles(document);
    expect(document.getElementById('q')!.hasAttribute(STYLE_KEY_ATTR)).toBe(false);
    expect(document.getElementById('r')!.style.color).toBe('blue');
  });
});

describe('completeHandover', () => {
  it('marks the container as taken over', () => {
    const root = container('<p>x</p>');
    completeHandover(root);
    expect(root.hasAttribute(HYDRATED_ATTR)).toBe(true);
  });

  it('submits again a form submitted before the app took over, once the container is marked', () => {
    const root = container(`<form ${SUBMIT_PENDING_ATTR}><input name="username"></form><form id="other"></form>`);
    const submits: Array<{ form: EventTarget | null; hydrated: boolean }> = [];
    root.addEventListener('submit', (e) => {
      e.preventDefault();
      submits.push({ form: e.target, hydrated: root.hasAttribute(HYDRATED_ATTR) });
    });
    completeHandover(root);
    expect(submits).toEqual([{ form: root.querySelector('form'), hydrated: true }]);
    expect(root.querySelector(`[${SUBMIT_PENDING_ATTR}]`)).toBeNull();
  });

  it('clicks again the element clicked before the app took over, once the app is idle (not inside its commit)', async () => {
    const root = container(`<div role="tab" id="tab" ${CLICK_PENDING_ATTR}>LDAP</div><div role="tab">Own</div>`);
    const clicks: string[] = [];
    root.addEventListener('click', (e) => clicks.push((e.target as Element).id || 'other'));
    completeHandover(root);
    expect(clicks).toEqual([]);
    await vi.waitFor(() => expect(clicks).toEqual(['tab']));
    expect(root.querySelector(`[${CLICK_PENDING_ATTR}]`)).toBeNull();
  });

  it('presses it as a whole, for controls that act on mousedown (a select opens there)', async () => {
    const root = container(`<input id="lang" role="combobox" readonly ${CLICK_PENDING_ATTR}>`);
    const presses: string[] = [];
    for (const type of ['mousedown', 'mouseup', 'click']) root.addEventListener(type, () => presses.push(type));
    completeHandover(root);
    await vi.waitFor(() => expect(presses).toEqual(['mousedown', 'mouseup', 'click']));
  });

  it('completes a press that began before the app started hydrating and ends after, as a whole press', async () => {
    const root = container(`<input id="lang" role="combobox" readonly ${PRESS_PENDING_ATTR}><div id="other"></div>`);
    const lang = document.getElementById('lang')!;
    const seen: string[] = [];
    for (const type of ['mousedown', 'mouseup', 'click']) root.addEventListener(type, () => seen.push(type));
    beginHandover(root);
    expect(root.querySelector(`[${PRESS_PENDING_ATTR}]`)).toBeNull();
    // The visitor lets go: the app sees the whole press (a select opens on its mousedown), not the click alone.
    const ending = new MouseEvent('click', { bubbles: true, cancelable: true });
    lang.dispatchEvent(ending);
    expect(ending.defaultPrevented).toBe(true);
    await vi.waitFor(() => expect(seen).toEqual(['mousedown', 'mouseup', 'click']));
    // Once: the next click is the visitor's own.
    lang.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(seen).toEqual(['mousedown', 'mouseup', 'click', 'click']);
  });

  it('lets a press go that ends elsewhere or is followed by a new one', async () => {
    for (const first of ['click on another element', 'new press'] as const) {
      const root = container(`<input id="lang" role="combobox" readonly ${PRESS_PENDING_ATTR}><div id="other"></div>`);
      const seen: string[] = [];
      for (const type of ['mousedown', 'click'])
        root.addEventListener(type, (e) => seen.push(`${type} ${(e.target as Element).id}`));
      beginHandover(root);
      if (first === 'click on another element')
        document.getElementById('other')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      else document.getElementById('lang')!.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
      document.getElementById('lang')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(seen, first).toEqual(
        first === 'new press' ? ['mousedown lang', 'click lang'] : ['click other', 'click lang'],
      );
    }
  });

  it('does nothing a second time: no second submit, click or input event', async () => {
    const root = container(
      `<form ${SUBMIT_PENDING_ATTR}><input id="u" value=""><button type="button" ${CLICK_PENDING_ATTR}>b</button></form>`,
    );
    (document.getElementById('u') as HTMLInputElement).value = 'ann';
    const requestSubmit = vi.spyOn(HTMLFormElement.prototype, 'requestSubmit').mockImplementation(() => {});
    const events: string[] = [];
    for (const type of ['click', 'input']) root.addEventListener(type, () => events.push(type));
    try {
      completeHandover(root);
      expect(requestSubmit).toHaveBeenCalledTimes(1);
      await vi.waitFor(() => expect(events).toEqual(['input', 'click']));
      // Whatever the visitor does next goes to the app, not through the handover again.
      root.querySelector('form')!.setAttribute(SUBMIT_PENDING_ATTR, '');
      completeHandover(root);
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(requestSubmit).toHaveBeenCalledTimes(1);
      expect(events).toEqual(['input', 'click']);
    } finally {
      requestSubmit.mockRestore();
    }
  });

  it('replays text typed before the app took over as an input event, and leaves untouched fields quiet', () => {
    const root = container(
      '<form><input id="typed" value=""><input id="same" value="kept"><input id="prefilled" value="old">' +
        '<textarea id="note"></textarea><input id="box" type="checkbox"></form>',
    );
    const field = (id: string) => document.getElementById(id) as HTMLInputElement;
    field('typed').value = 'ann';
    field('prefilled').value = 'new';
    (document.getElementById('note') as HTMLTextAreaElement).value = 'hello';
    field('box').checked = true;
    const inputs: Array<{ id: string; value: string }> = [];
    root.addEventListener('input', (e) => {
      const el = e.target as HTMLInputElement;
      inputs.push({ id: el.id, value: el.value });
    });
    completeHandover(root);
    expect(inputs).toEqual([
      { id: 'typed', value: 'ann' },
      { id: 'prefilled', value: 'new' },
      { id: 'note', value: 'hello' },
    ]);
    expect(field('typed').value).toBe('ann');
    expect(field('same').value).toBe('kept');
    expect(field('box').checked).toBe(true);
  });

  it('replays the typed text before it submits the pending form, so the submit sees it', () => {
    const root = container(`<form ${SUBMIT_PENDING_ATTR}><input id="u" value=""></form>`);
    (document.getElementById('u') as HTMLInputElement).value = 'ann';
    const order: string[] = [];
    root.addEventListener('input', () => order.push('input'));
    root.addEventListener('submit', (e) => {
      e.preventDefault();
      order.push('submit');
    });
    completeHandover(root);
    expect(order).toEqual(['input', 'submit']);
  });

  it('gets text typed before hydration into a hydrated React field, which a plain input event would not', async () => {
    /** A controlled field that shows what its state holds. */
    function Field() {
      const [value, setValue] = useState('');
      return createElement(
        'form',
        null,
        createElement('input', {
          id: 'u',
          value,
          onChange: (e: ChangeEvent<HTMLInputElement>) => setValue(e.target.value),
        }),
        createElement('output', { id: 'state' }, `[${value}]`),
      );
    }
    const root = container(renderToString(createElement(Field)));
    const input = document.getElementById('u') as HTMLInputElement;
    const state = () => document.getElementById('state')!.textContent;
    input.value = 'ann';
    const app = await act(async () => hydrateRoot(root, createElement(Field)));
    // Hydrated, React takes the typed text for the value it already knows: an input event changes nothing.
    await act(async () => {
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect(state()).toBe('[]');
    await act(async () => completeHandover(root));
    expect(state()).toBe('[ann]');
    expect(input.value).toBe('ann');
    act(() => app.unmount());
  });

  it('hands a file picked before hydration to a hydrated React file field, never setting a file field’s value', async () => {
    const picked: string[] = [];
    function Upload() {
      return createElement('input', {
        id: 'f',
        type: 'file',
        onChange: (e: ChangeEvent<HTMLInputElement>) =>
          picked.push(...Array.from(e.target.files ?? []).map((f) => f.name)),
      });
    }
    const root = container(renderToString(createElement(Upload)));
    const input = document.getElementById('f') as HTMLInputElement;
    // What a browser holds once a file is picked: the files, and a value that no script may set but to ''.
    const files = [new File(['x'], 'me.png', { type: 'image/png' })];
    Object.defineProperty(input, 'files', { configurable: true, get: () => files });
    Object.defineProperty(input, 'value', {
      configurable: true,
      get: () => 'C:\\fakepath\\me.png',
      set: (v: string) => {
        if (v !== '') throw new DOMException('may only be set to the empty string', 'InvalidStateError');
      },
    });
    const app = await act(async () => hydrateRoot(root, createElement(Upload)));
    await act(async () => completeHandover(root));
    expect(picked).toEqual(['me.png']);
    act(() => app.unmount());
  });
});
