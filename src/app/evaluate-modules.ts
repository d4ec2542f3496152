// Runs the modules of the scripts already on the page, a slice at a time, before the app asks for them.

// rspack's runtime: every installed module's factory, by id, and the function that runs one (once; later calls answer
// its exports). Outside an rspack bundle (unit tests) neither exists.
declare const __webpack_modules__: Record<string, unknown> | undefined;
declare const __webpack_require__: ((id: string) => unknown) | undefined;

/** Main-thread time one slice may take (ms): Lighthouse counts a task over 50 ms as blocking, on a phone 4× slower. */
const SLICE_MS = 8;

/** Lets the browser run other tasks (input, rendering, network callbacks) before what comes next. */
export function nextTask(): Promise<void> {
  const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof s?.yield === 'function') return s.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/** The pattern of a require call, by the name the factory gives `require` (minified factories share a few names). */
const CALLS = new Map<string, RegExp>();

/**
 * The ids a bundled module factory requires, read from its source: `function(module, exports, require)` (or the arrow
 * form), then every `require("id")` in the body. Ids the bundle does not hold are dropped by the caller.
 */
export function requiredIds(factorySource: string): string[] {
  const params = /^[^(]*\(\s*([\w$]+)?\s*,?\s*([\w$]+)?\s*,?\s*([\w$]+)?/.exec(factorySource);
  const req = params?.[3];
  if (!req) return [];
  let calls = CALLS.get(req);
  if (!calls) {
    calls = new RegExp(`(?<![\\w$.])${req.replace(/\$/g, '\\$')}\\(\\s*(?:"([^"]+)"|'([^']+)'|(\\d+))\\s*\\)`, 'g');
    CALLS.set(req, calls);
  }
  return [...factorySource.matchAll(calls)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/**
 * The order to run `ids` in so that each module's imports run before it (depth first, imports first), given what
 * each requires. Cycles are cut where they close; the runtime resolves them as it does on demand. Lazy: each module's
 * imports are asked for only when the walk reaches it, so a caller that stops to yield spreads that work too.
 */
export function* importsFirst(ids: readonly string[], requires: (id: string) => readonly string[]): Generator<string> {
  const known = new Set(ids);
  const done = new Set<string>();
  for (const root of ids) {
    if (done.has(root)) continue;
    // iterative depth-first walk: [id, its requires, next index]
    const stack: [string, readonly string[], number][] = [[root, requires(root), 0]];
    done.add(root);
    while (stack.length) {
      const top = stack[stack.length - 1];
      if (top[2] < top[1].length) {
        const dep = top[1][top[2]++];
        if (known.has(dep) && !done.has(dep)) {
          done.add(dep);
          stack.push([dep, requires(dep), 0]);
        }
      } else {
        yield top[0];
        stack.pop();
      }
    }
  }
}

/**
 * Runs every installed module, its imports first, yielding to the browser every few milliseconds, so no single task
 * runs a whole tree of modules. A module that throws is left to fail again where the app imports it, with that
 * import's own error handling. Answers at once outside an rspack bundle.
 */
export async function evaluateInstalledModules(sliceMs = SLICE_MS): Promise<void> {
  if (typeof __webpack_modules__ !== 'object' || typeof __webpack_require__ !== 'function') return;
  const factories = __webpack_modules__;
  const run = __webpack_require__;
  const source = (id: string) => {
    const f = factories[id];
    return typeof f === 'function' ? requiredIds(Function.prototype.toString.call(f)) : [];
  };
  // Not in the task that runs the script which asked (its own compile and top level are enough for one task).
  await nextTask();
  let sliceStart = performance.now();
  for (const id of importsFirst(Object.keys(factories), source)) {
    try {
      run(id);
    } catch {
      // the app's own import of it reports the failure
    }
    if (performance.now() - sliceStart > sliceMs) {
      await nextTask();
      sliceStart = performance.now();
    }
  }
}
