import { describe, expect, it } from 'vitest';
import { evaluateInstalledModules, importsFirst, requiredIds } from './evaluate-modules';

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
    const order = importsFirst(Object.keys(deps), (id) => deps[id]);
    expect(order).toEqual(['lib', 'ui', 'app', 'b', 'a']);
  });
});

describe('evaluateInstalledModules', () => {
  it('answers at once outside an rspack bundle', async () => {
    await expect(evaluateInstalledModules()).resolves.toBeUndefined();
  });
});
