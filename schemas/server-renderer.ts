// What the service (server/html/first-screen.ts) and the build's renderer of first screens (src/app/server.tsx) agree on.
import path from 'node:path';
import type { PageConfig } from './page-config';

/** The renderer is `<dist>/.server/<edition>/render.cjs`, a CommonJS bundle. */
export const SERVER_RENDERER_NAME = 'render';

/** The renderer's file: outside the edition's served folder, so it is never sent to a browser. */
export function serverRendererFile(distDir: string, edition: string): string {
  return path.join(distDir, '.server', edition, `${SERVER_RENDERER_NAME}.cjs`);
}

/**
 * A rendered first screen: the container's HTML, and antd's `<style>` elements of what it renders (antd's own server
 * extract, which the app's antd finds in the page and does not write again).
 */
export interface FirstScreen {
  html: string;
  styles: string;
}

/**
 * The renderer's `renderPage`: the first screen of the requested path and query for the page configuration the
 * service puts in the same page; undefined when the page only redirects (nothing to paint). `signal` stops a render
 * that takes too long.
 */
export type RenderPage = (input: {
  url: string;
  config: PageConfig;
  signal?: AbortSignal;
}) => Promise<FirstScreen | undefined>;
