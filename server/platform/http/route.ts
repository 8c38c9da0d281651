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
export type Produces = 'json' | 'event-stream' | 'json-or-event-stream' | 'binary' | 'zip' | 'html' | 'png' | 'svg' | 'redirect';

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

/** The value a handler answers with: JSON routes return the body (typed by `response`); others write to `res` and return nothing. */
export type Reply<R, O extends Produces> = O extends 'json'
  ? R extends z.ZodType
    ? z.input<R>
    : NonNullable<unknown> | null
  : O extends 'json-or-event-stream'
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
  /** Non-JSON answers (the handler writes them to `res`). */
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
  authorize?: (ctx: GuardedContext<G, P>) => Promise<A> | A;
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
 * Declares one endpoint: method, path, guard, optional permission, body/query/response schemas
 * and its summary, with a handler that receives `{auth, user, body, query, params, authorized,
 * req, res}` already checked and typed. A JSON route returns its answer (sent with `res.json`);
 * other routes (`produces`) write to `res` and return nothing. Routes run, in order: `before`
 * middleware, the guard, the permission, `authorize`, the query, the body, the handler. The API
 * reference (`/api/openapi.json`) is built from these declarations.
 *
 * @example
 * route({ method: 'get', path: '/:id', guard: 'user', summary: 'A folder', response: Folder }, ({ user, params }) => folders.get(user.id, params.id))
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
    if (answer !== undefined && (produces === 'json' || produces === 'json-or-event-stream')) res.json(answer);
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
