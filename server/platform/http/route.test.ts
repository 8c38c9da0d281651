import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorHandler } from './error-handler';
import { forbidden, unauthorized } from './errors';
import { buildRouter, docOf, route, type RouteAccess } from './route';
import { listRoutes } from './route-table';

const silent = pino({ level: 'silent' });

/** Test guards: `x-role` stands in for a session (`pending`, `user`, `admin`). */
const guard = (allowed: string[]): RequestHandler => (req, _res, next) => {
  const role = req.headers['x-role'];
  if (typeof role !== 'string') throw unauthorized('Not authenticated', 'NOT_AUTHENTICATED');
  if (!allowed.includes(role)) throw forbidden('No', 'FORBIDDEN');
  next();
};
const calls: string[] = [];
const access: RouteAccess = {
  guards: { session: guard(['pending', 'user', 'admin']), user: guard(['user', 'admin']), admin: guard(['admin']) },
  allows: async (user) => {
    calls.push(`allows ${user.id}`);
    return user.id === 'granted';
  },
};

const Item = z.object({ id: z.string(), n: z.number() });

describe('route()', () => {
  let url: string;
  let close: () => void;
  const app = express();

  beforeAll(async () => {
    app.use(express.json());
    app.use((req, _res, next) => {
      const role = req.headers['x-role'];
      if (typeof role === 'string') req.auth = { user: { id: String(req.headers['x-user'] ?? 'u'), role } as never, via: 'jwt', credential: 'c' };
      next();
    });
    const routes = [
      route({ method: 'get', path: '/items/:id', guard: 'user', query: z.object({ n: z.coerce.number().int() }), summary: 'One item', response: Item }, async ({ params, query }) => ({ id: params.id, n: query.n })),
      route(
        {
          method: 'post',
          path: '/items/:id/rename',
          guard: 'user',
          permission: 'workspace.prompts',
          refused: () => forbidden('You may not', 'RENAME_FORBIDDEN'),
          authorize: ({ params }) => {
            calls.push(`authorize ${params.id}`);
            if (params.id === 'hidden') throw forbidden('Hidden', 'HIDDEN');
            return params.id.toUpperCase();
          },
          body: z.object({ name: z.string().min(1) }),
          invalid: 400,
          summary: 'Rename an item',
        },
        async ({ authorized, body, user }) => ({ renamed: authorized, to: body.name, by: user.id }),
      ),
      route({ method: 'get', path: '/page', guard: 'public', produces: 'html', summary: 'A page' }, async ({ res, user }) => {
        res.type('html').send(`<p>${user ? user.id : 'anyone'}</p>`);
      }),
    ];
    app.use('/api', buildRouter(routes, access));
    app.use(errorHandler(silent));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close?.());

  const call = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
    fetch(`${url}${path}`, { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });

  it('answers the handler’s value as JSON, with params and the parsed query', async () => {
    const res = await call('GET', '/api/items/a1?n=7', { 'x-role': 'user' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 'a1', n: 7 });
  });

  it('refuses by the guard before it reads the query (401, then 403 for the wrong role)', async () => {
    expect((await call('GET', '/api/items/a1?n=x')).status).toBe(401);
    expect((await call('GET', '/api/items/a1?n=x', { 'x-role': 'pending' })).status).toBe(403);
    const bad = await call('GET', '/api/items/a1?n=x', { 'x-role': 'user' });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/'n'/);
  });

  it('checks the permission (admins skip it), then authorize, then the body, answering 400 where declared', async () => {
    calls.length = 0;
    const refused = await call('POST', '/api/items/x/rename', { 'x-role': 'user', 'x-user': 'plain' }, {});
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ detail: 'You may not', code: 'RENAME_FORBIDDEN' });
    expect(calls).toEqual(['allows plain']);

    calls.length = 0;
    const hidden = await call('POST', '/api/items/hidden/rename', { 'x-role': 'user', 'x-user': 'granted' }, {});
    expect(hidden.status).toBe(403);
    expect(calls).toEqual(['allows granted', 'authorize hidden']);

    expect((await call('POST', '/api/items/x/rename', { 'x-role': 'user', 'x-user': 'granted' }, { name: '' })).status).toBe(400);

    calls.length = 0;
    const ok = await call('POST', '/api/items/x/rename', { 'x-role': 'admin', 'x-user': 'boss' }, { name: 'new' });
    expect(await ok.json()).toEqual({ renamed: 'X', to: 'new', by: 'boss' });
    expect(calls).toEqual(['authorize x']);
  });

  it('lets a public route be called signed out, and a non-JSON route answer by itself', async () => {
    const res = await call('GET', '/api/page');
    expect(res.headers.get('content-type')).toMatch(/html/);
    expect(await res.text()).toBe('<p>anyone</p>');
  });

  it('leaves its declaration on the mounted route for the API reference', () => {
    const mounted = listRoutes(app).find((r) => r.path === '/api/items/:id/rename')!;
    expect(docOf(mounted.handlers)).toMatchObject({ summary: 'Rename an item', guard: 'user', permission: 'workspace.prompts', produces: 'json' });
    expect(docOf([() => undefined])).toBeUndefined();
  });
});
