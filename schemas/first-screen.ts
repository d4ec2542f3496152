// What the service's first screen (server/html/render.ts) and the browser that hydrates it (src/app/start.tsx) agree on.

/** Set on `#container` when the service rendered the page's first screen into it: the app hydrates it. */
export const FIRST_SCREEN_ATTR = 'data-first-screen';
