import type { Express } from 'express';

/** One route of the service: an HTTP method and its full path pattern (`/api/v1/users/:id`). */
export interface RouteEntry {
  method: string;
  path: string;
  /** The route's own middleware and handlers, in order (guards, validators, the handler). */
  handlers: unknown[];
}

interface LayerLike {
  rawPath?: string | string[];
  route?: { path: string | string[]; methods: Record<string, boolean>; stack?: Array<{ method?: string; handle: unknown }> };
  handle?: { stack?: LayerLike[] };
}

function join(prefix: string, path: string): string {
  const joined = `${prefix}/${path}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

function walk(stack: LayerLike[], prefix: string, out: RouteEntry[]): void {
  for (const layer of stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const p of paths) {
        for (const [method, on] of Object.entries(layer.route.methods)) {
          if (!on || method === '_all') continue;
          const handlers = (layer.route.stack ?? []).filter((l) => !l.method || l.method === method).map((l) => l.handle);
          out.push({ method: method.toUpperCase(), path: join(prefix, p), handlers });
        }
      }
    } else if (layer.handle?.stack && typeof layer.rawPath === 'string') {
      walk(layer.handle.stack, join(prefix, layer.rawPath), out);
    }
  }
}

/** Every route mounted on the app, read from Express's router (so a new route cannot be missed). */
export function listRoutes(app: Express): RouteEntry[] {
  const router = (app as unknown as { router?: { stack: LayerLike[] } }).router;
  const out: RouteEntry[] = [];
  if (router) walk(router.stack, '', out);
  const seen = new Set<string>();
  return out.filter((r) => {
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
