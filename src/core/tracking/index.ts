export * from './browser';
export * from './limits';
export * from './perf';
export * from './queue';
export * from './sanitize';
export * from './settle';
export * from './sender';
export * from './tracker';
