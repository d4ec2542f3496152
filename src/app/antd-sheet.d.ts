/** The edition's antd stylesheet, written at build time (rsbuild.config.ts); imported for its side effect. */
declare module '@antd-styles/edition';
