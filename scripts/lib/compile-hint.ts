import { rspack } from '@rsbuild/core';

/** V8's file-wide compile hint (Chrome 136+); it must be the file's first line. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * Opens every script we ship with {@link COMPILE_HINT}: V8 then compiles each of its functions while the script
 * streams in, off the main thread, rather than on the function's first call. Every script we ship runs as soon as it
 * arrives (start-up evaluates each installed module, and a lazy chunk is fetched when its page renders), so lazy
 * compiling only moved that work into the page's first long tasks. Added after minification, which would drop it as
 * a comment.
 */
export const compileHintPlugin = () =>
  new rspack.BannerPlugin({
    banner: COMPILE_HINT,
    raw: true,
    include: /\.js$/,
    stage: rspack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE + 1,
  });
