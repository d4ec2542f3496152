import path from 'node:path';

/** The build's renderer of first screens (src/app/server.tsx) is `<dist>/.server/<edition>/render.cjs`, a CommonJS bundle. */
export const SERVER_RENDERER_NAME = 'render';

/** The folder of an edition's renderer: outside the edition's served folder, so it is never sent to a browser. */
export function serverRendererDir(distDir: string, edition: string): string {
  return path.join(distDir, '.server', edition);
}

/** The renderer's file. */
export function serverRendererFile(distDir: string, edition: string): string {
  return path.join(serverRendererDir(distDir, edition), `${SERVER_RENDERER_NAME}.cjs`);
}
