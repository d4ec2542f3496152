import { afterEach, describe, expect, it } from 'vitest';
import { evaluateInstalledModules, importsFirst, nextTask, requiredIds } from './evaluate-modules';

describe('requiredIds', () => {
  it('reads the require calls of a minified factory, by its third parameter', () => {
    const src = 'A(e,n,_){_.d(n,{start:()=>ea});var s=_("X"),o=_("w"),t=x("nope"),u=a._("no"),v=_(12);}';
    expect(requiredIds(src)).toEqual(['X', 'w', '12']);
  });
  it('reads the function and arrow forms, and a factory that requires nothing', () => {
    expect(requiredIds('function(module, exports, __webpack_require__) { __webpack_require__("./a.js"); }')).toEqual([
      './a.js',
    ]);
    expect(requiredIds("(e, t, $r) => { $r('b'); }")).toEqual(['b']);
    expect(requiredIds('function(e){e.exports=1}')).toEqual([]);
  });
});

describe('importsFirst', () => {
  it('puts every module after what it requires, each once, and cuts a cycle where it closes', () => {
    const deps: Record<string, string[]> = { app: ['ui', 'lib'], ui: ['lib', 'gone'], lib: [], a: ['b'], b: ['a'] };
    const order = [...importsFirst(Object.keys(deps), (id) => deps[id])];
    expect(order).toEqual(['lib', 'ui', 'app', 'b', 'a']);
  });

  it("asks for a module's imports only when the walk reaches it", () => {
    const asked: string[] = [];
    const deps: Record<string, string[]> = { a: ['b'], b: [], c: [] };
    const walk = importsFirst(Object.keys(deps), (id) => (asked.push(id), deps[id]));
    expect(walk.next().value).toBe('b');
    expect(asked).toEqual(['a', 'b']);
    expect([...walk]).toEqual(['a', 'c']);
    expect(asked).toEqual(['a', 'b', 'c']);
  });
});

describe('evaluateInstalledModules', () => {
  const g = globalThis as { __webpack_modules__?: unknown; __webpack_require__?: unknown };
  afterEach(() => {
    delete g.__webpack_modules__;
    delete g.__webpack_require__;
  });

  /**
   * A stand-in for rspack's runtime: factories by id, and a require that runs each once, as the runtime does (a
   * factory that throws is forgotten, to throw again on the next require).
   */
  function installRuntime(factories: Record<string, (m: unknown, e: unknown, r: (id: string) => unknown) => void>) {
    const cache = new Map<string, unknown>();
    const ran: string[] = [];
    const require = (id: string): unknown => {
      if (cache.has(id)) return cache.get(id);
      cache.set(id, {});
      try {
        factories[id]({}, cache.get(id), require);
      } catch (e) {
        cache.delete(id);
        throw e;
      }
      ran.push(id);
      return cache.get(id);
    };
    g.__webpack_modules__ = factories;
    g.__webpack_require__ = require;
    return ran;
  }

  it('runs every installed module once, one per slice when each slice is spent, imports first', async () => {
    // Listed before what it requires, as a bundle may; the factories' source names what they require.
    const ran = installRuntime({
      app: (m, e, r) => {
        r('ui');
        r('lib');
      },
      ui: (m, e, r) => r('lib'),
      lib: () => {},
    });
    const done = evaluateInstalledModules(-1); // every module spends its slice
    expect(ran).toEqual([]); // nothing in the task of the script that asked
    await nextTask(); // queued after the first slice's own turn
    expect(ran).toEqual(['lib']); // then the first slice ran one module, not app's whole tree
    await done;
    expect(ran).toEqual(['lib', 'ui', 'app']);
  });

  it('goes on past a module that throws, leaving it and what imports it to the app', async () => {
    const ran = installRuntime({
      page: (m, e, r) => r('broken'),
      broken: () => {
        throw new Error('fails where the app imports it');
      },
      lib: () => {},
    });
    await evaluateInstalledModules();
    expect(ran).toEqual(['lib']);
  });

  it('answers at once outside an rspack bundle', async () => {
    await expect(evaluateInstalledModules()).resolves.toBeUndefined();
  });
});
