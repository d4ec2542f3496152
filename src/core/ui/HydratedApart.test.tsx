import { act, useLayoutEffect, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { HydratedApart } from './HydratedApart';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => {
  document.body.innerHTML = '';
});

/** Records its layout effect (a commit's work) under `name`. */
function Part({ name, log, children }: { name: string; log: string[]; children?: ReactNode }) {
  useLayoutEffect(() => void log.push(name), [log, name]);
  return <div id={name}>{children}</div>;
}

/** Hydrates the server's HTML of `tree(log)` and answers the order the layout effects ran in. */
async function hydrationOrder(tree: (log: string[]) => ReactNode): Promise<string[]> {
  document.body.innerHTML = `<div id="container">${renderToString(tree([]))}</div>`;
  const container = document.getElementById('container')!;
  const painted = container.firstElementChild;
  const log: string[] = [];
  const root = await act(async () => hydrateRoot(container, tree(log)));
  // Hydrated, not rendered afresh: the server's elements are still there.
  expect(container.firstElementChild).toBe(painted);
  act(() => root.unmount());
  return log;
}

describe('HydratedApart', () => {
  it('hydrates its content in a commit after the one of what surrounds it', async () => {
    // In one commit React runs a child's layout effects before its parent's.
    expect(
      await hydrationOrder((log) => (
        <Part name="page" log={log}>
          <Part name="table" log={log} />
        </Part>
      )),
    ).toEqual(['table', 'page']);
    // Apart, the page's commit is done before the table's begins.
    expect(
      await hydrationOrder((log) => (
        <Part name="page" log={log}>
          <HydratedApart>
            <Part name="table" log={log} />
          </HydratedApart>
        </Part>
      )),
    ).toEqual(['page', 'table']);
  });
});
