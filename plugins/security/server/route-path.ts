/** A contract path as Fastify registers it: a colon inside a segment (`sessions:end-others`) is written `::`. */
export const routePath = (path: string): string => path.replace(/([^/]):/g, '$1::');
