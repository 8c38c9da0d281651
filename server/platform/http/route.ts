import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import type { PermissionKey } from '../../contracts/permissions';
import { forbidden, type HttpError } from './errors';
import { parseOrThrow } from './validate';

/**
 * Who may call a route:
 * - `public`: anyone, signed in or not (`auth` may still be set);
 * - `session`: any signed-in account, pending ones included;
 * - `user`: a verified account (role `user` or `admin`);
 * - `admin`: administrators only.
 */
export type Guard = 'public' | 'session' | 'user' | 'admin';

/** The HTTP methods routes are declared with. */
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What a route answers: JSON (the default) or something it writes to `res` itself. */
export type Produces = 'json' | 'event-stream' | 'json-or-event-stream' | 'json-or-markdown' | 'binary' | 'zip' | 'html' | 'png' | 'svg' | 'redirect';

/** The signed-in caller, as the authenticating middleware left it on the request. */
export type RouteAuth = NonNullable<Request['auth']>;
/** The signed-in account. */
export type RouteUser = RouteAuth['user'];

/** `{id: string, message_id: string}` from `/:id/messages/:message_id`; a `*rest` wildcard is its segments. */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : P extends `${string}*${infer Name}`
      ? { [K in Name]: string[] }
      : Record<never, never>;

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The caller, typed by the guard: a `public` route may be called without a session. */
export interface Caller<G extends Guard> {
  auth: G extends 'public' ? RouteAuth | undefined : RouteAuth;
  user: G extends 'public' ? RouteUser | undefined : RouteUser;
}

/** What `authorize` sees: the caller and the path, before the body and query are read. */
export interface GuardedContext<G extends Guard, P extends string> extends Caller<G> {
  req: Request;
  res: Response;
  params: PathParams<P>;
}

/** What the handler sees: the caller, the path, the parsed body and query, and what `authorize` returned. */
export interface RouteContext<G extends Guard, P extends string, B, Q, A> extends GuardedContext<G, P> {
  body: Parsed<B>;
  query: Parsed<Q>;
  authorized: A;
}

/**
 * The value a handler answers with. JSON routes (`json`, `json-or-…`) return the body, typed by
 * `response`, and the router sends it; `undefined` (written explicitly) means the handler already
 * answered, or the client is gone. The other routes write to `res` and return nothing.
 */
export type Reply<R, O extends Produces> = O extends 'json' | 'json-or-event-stream' | 'json-or-markdown'
  ? (R extends z.ZodType ? z.input<R> : NonNullable<unknown> | null) | undefined
  : void;

/** One endpoint: everything the router, the guard, the validator and the API reference need. */
export interface RouteSpec<M extends Method, P extends string, G extends Guard, B, Q, R, O extends Produces, A> {
  method: M;
  /** Express path, relative to where the routes are mounted (`/:id/update`, `/models/*id`). */
  path: P;
  guard: G;
  /** A permission the caller must hold (admins hold all), checked after the guard and before the body is read. */
  permission?: PermissionKey;
  /** The refusal when `permission` is missing (default: 403 PERMISSION_REQUIRED naming it). */
  refused?: () => HttpError;
  /** One line for the API reference. */
  summary: string;
  /** zod schema of the JSON body; the handler gets the parsed value. */
  body?: B;
  /** zod schema of the query string; the handler gets the parsed value. */
  query?: Q;
  /** zod schema of the 200 answer: types what a JSON handler returns and documents it. */
  response?: R;
  /** How a body or query that fails its schema is answered: 422 (default) or 400 where the interface says 400. */
  invalid?: 400 | 422;
  /** What it answers when not plain JSON (the default): the handler writes those to `res` itself. */
  produces?: O;
  /** Non-JSON request bodies (read by the handler from `req`). */
  consumes?: 'multipart';
  /** Express middleware run before the guard (e.g. reading a credential from the query string). */
  before?: RequestHandler[];
  /**
   * Refusals that must come before a 422 (ownership, rate limits), run after the guard and the
   * permission and before the query and body are validated. What it returns reaches the handler
   * as `authorized`.
   */
  authorize?: (ctx: NoInfer<GuardedContext<G, P>>) => Promise<A> | A;
}

/** What the API reference says about a route, beyond its method and path. */
export interface RouteDoc {
  summary: string;
  guard: Guard;
  permission?: PermissionKey;
  body?: z.ZodType;
  query?: z.ZodType;
  response?: z.ZodType;
  produces: Produces;
  consumes?: 'multipart';
}

/** A declared route as the router and the API reference read it. */
export interface RouteDef {
  readonly method: Method;
  readonly path: string;
  readonly doc: RouteDoc;
  /** Middleware run before the guard. */
  readonly before: readonly RequestHandler[];
  /** The refusal when the permission is missing. */
  readonly refused: () => HttpError;
  /** Runs `authorize`, validation and the handler, and answers. */
  readonly run: (req: Request, res: Response) => Promise<void>;
}

/** A domain's routes, in the order they are matched. */
export type Routes = readonly RouteDef[];

/** Where a route's declaration is kept on its Express handler, for the API reference. */
export const ROUTE_DOC = Symbol.for('parley.route-doc');

/** How the router enforces guards and permissions: given by the composition root (the session guards, the permissions service). */
export interface RouteAccess {
  /** Middleware that lets a request through a guard or throws its refusal (401/403). */
  guards: Record<Exclude<Guard, 'public'>, RequestHandler>;
  /** Whether a signed-in caller holds a permission. */
  allows(user: RouteUser, permission: PermissionKey): Promise<boolean>;
}

/**
 * Declares one endpoint: everything about it in one place. A domain's `<domain>.routes.ts`
 * exports `fooRoutes(deps): Routes` (an array of these) and `server/routes.ts` mounts it with one
 * line, `app.use('/api/v1/foo', routerOf(fooRoutes(services.foo)))`; the API reference
 * (`/api/openapi.json`) is built from the mounted declarations, so there is nothing else to edit.
 *
 * A request runs, in order: `before` middleware, the `guard` (401/403), the `permission` (403,
 * `refused`), `authorize` (ownership and other refusals that come before validation), the `query`
 * and the `body` (422 naming the field, or 400 with `invalid: 400`; a body that is not JSON is
 * 400 here), then the handler. The handler gets `{auth, user, params, query, body, authorized,
 * req, res}` typed: `params` from the path, `query`/`body` from the zod schemas' output, `auth`
 * and `user` never undefined unless the guard is `public`. A JSON route returns its answer (typed
 * by `response`, sent with `res.json`; return `undefined` only when it already answered or the
 * client left); a route that `produces` something else writes it to `res` and returns nothing.
 *
 * @example A GET with a query string:
 * route({ method: 'get', path: '/search', guard: 'user', query: UserSearchQuery, summary: 'Find users by name or email', response: UserSearchResponse }, ({ query }) => users.search(query.query))
 *
 * @example A POST with a body, a permission (admins hold every one) and a check before the body:
 * route(
 *   { method: 'post', path: '/command/:command/update', guard: 'user', permission: 'workspace.prompts', refused: promptsForbidden,
 *     authorize: ({ user, params }) => prompts.get(user, params.command), body: PromptForm, summary: 'Update a saved prompt', response: Prompt },
 *   ({ user, params, body, authorized }) => prompts.update(user, authorized.command, body),
 * )
 *
 * @example A stream (or JSON, as the body asks):
 * route({ method: 'post', path: '/completions', guard: 'user', body: CompletionRequest, invalid: 400, produces: 'json-or-event-stream', summary: 'Chat completion', response: ChatCompletion },
 *   async ({ res, auth, body }) => {
 *     if (!body.stream) return completions.answer(auth.user, body);
 *     const stream = new ChunkWriter(res, identity, 'parley');
 *     // … stream.event(e) for each event, then stream.finish(…) and stream.end()
 *     return undefined;
 *   })
 */
export function route<M extends Method, P extends string, G extends Guard, B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, R extends z.ZodType | undefined = undefined, O extends Produces = 'json', A = undefined>(
  spec: RouteSpec<M, P, G, B, Q, R, O, A>,
  handler: (ctx: RouteContext<G, P, B, Q, A>) => Promise<NoInfer<Reply<R, O>>> | NoInfer<Reply<R, O>>,
): RouteDef {
  const produces = spec.produces ?? 'json';
  const options = { status: spec.invalid ?? 422 } as const;
  const run = async (req: Request, res: Response): Promise<void> => {
    const caller = { auth: req.auth, user: req.auth?.user } as Caller<G>;
    const guarded: GuardedContext<G, P> = { ...caller, req, res, params: req.params as PathParams<P> };
    const authorized = spec.authorize ? await spec.authorize(guarded) : (undefined as A);
    const query = (spec.query ? parseOrThrow(spec.query as z.ZodType, req.query, options) : undefined) as Parsed<Q>;
    let body = undefined as Parsed<B>;
    if (spec.body) {
      if (req.bodyError) throw req.bodyError;
      body = parseOrThrow(spec.body as z.ZodType, req.body === undefined ? {} : req.body, options) as Parsed<B>;
      req.body = body;
    }
    const answer = await handler({ ...guarded, body, query, authorized });
    if (answer !== undefined && (produces === 'json' || produces.startsWith('json-or-'))) res.json(answer);
  };
  const { permission } = spec;
  return {
    method: spec.method,
    path: spec.path,
    doc: { summary: spec.summary, guard: spec.guard, permission, body: spec.body, query: spec.query, response: spec.response, produces, consumes: spec.consumes },
    before: spec.before ?? [],
    refused: spec.refused ?? (() => forbidden(`This needs the permission '${permission}'`, 'PERMISSION_REQUIRED')),
    run,
  };
}

function permissionCheck(def: RouteDef, access: RouteAccess): RequestHandler | undefined {
  const { permission } = def.doc;
  if (!permission) return undefined;
  return async (req, _res, next) => {
    const user = req.auth?.user;
    if (user && (user.role === 'admin' || (await access.allows(user, permission)))) return next();
    // A refused upload is not read: drain what the client is still sending.
    req.resume();
    throw def.refused();
  };
}

/** Builds the Express router of a domain's declared routes. */
export function buildRouter(routes: Routes, access: RouteAccess): Router {
  const router = Router();
  for (const def of routes) {
    const guard = def.doc.guard === 'public' ? undefined : access.guards[def.doc.guard];
    const permission = permissionCheck(def, access);
    const handle: RequestHandler = (req, res) => def.run(req, res);
    const chain = [...def.before, ...(guard ? [guard] : []), ...(permission ? [permission] : []), Object.assign(handle, { [ROUTE_DOC]: def.doc })];
    router[def.method](def.path, ...chain);
  }
  return router;
}

/** The declaration a mounted route's handlers carry, if it was declared with `route`. */
export function docOf(handlers: readonly unknown[]): RouteDoc | undefined {
  for (const handler of handlers) {
    const doc = (handler as { [ROUTE_DOC]?: RouteDoc } | undefined)?.[ROUTE_DOC];
    if (doc) return doc;
  }
  return undefined;
}
