// Modules the build provides (see rsbuild.config.ts and scripts/lib/antd-styles.ts).

/** The edition's core antd stylesheet, written at build time; imported for its side effect (it joins index.css). */
declare module '@antd-styles/core';
/** The date picker's antd rules beyond the core's (loaded with the picker, src/core/ui/LazyDatePicker.tsx). */
declare module '@antd-styles/date-picker';

/**
 * @rc-component/util's dynamicCSS itself: the `?original` query keeps this one import from being redirected to
 * src/app/style-nonce.ts, which wraps it.
 */
declare module '@rc-component/util/es/Dom/dynamicCSS.js?original' {
  export * from '@rc-component/util/es/Dom/dynamicCSS';
}

/** @ant-design/cssinjs's CSS-variable registration itself (wrapped by src/app/css-var-register.ts, as above). */
declare module '@ant-design/cssinjs/es/hooks/useCSSVarRegister.js?original' {
  export * from '@ant-design/cssinjs/es/hooks/useCSSVarRegister';
  export { default } from '@ant-design/cssinjs/es/hooks/useCSSVarRegister';
}
