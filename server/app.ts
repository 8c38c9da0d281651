import { existsSync } from 'node:fs';
import path from 'node:path';
import cookieParser from 'cookie-parser';
import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import { authenticate } from './auth';
import { auditAdminActions } from './platform/http/audit';
import { corsPolicy } from './platform/http/cors';
import { errorHandler, notFoundHandler } from './platform/http/error-handler';
import { requireKnownHost } from './platform/http/host-allowlist';
import { refuseDeepJson } from './platform/http/json-depth';
import { requireSameOriginForCookies } from './platform/http/same-origin';
import { addressSet } from './platform/http/trusted-proxies';
import { openAiErrorHandler } from './gateway';
import { mountRoutes } from './routes';
import type { Services } from './services';

/** Paths that belong to the API and never fall back to the UI. */
const API_PREFIXES = ['/api', '/v1', '/auths', '/compat', '/local', '/health', '/socket.io', '/oauth'];

/** Parses JSON bodies, keeping a parse failure for the route to raise after its guards ran. */
function jsonBody(limitBytes: number): RequestHandler {
  const parse = express.json({ limit: limitBytes, verify: refuseDeepJson });
  return (req, res, next) => {
    parse(req, res, (error?: unknown) => {
      if (error) {
        const e = error as { type?: string };
        if (e.type === 'entity.too.large') return next(error);
        // Thrown by refuseDeepJson: our own 400, raised by the route after its guards like a parse failure.
        req.bodyError = error as Error;
      }
      next();
    });
  };
}

/** Serves the built UI with a single-page-app fallback, or a page saying it is not built. */
function serveRenderer(rendererDir: string | undefined): RequestHandler[] {
  const index = rendererDir ? path.join(rendererDir, 'index.html') : undefined;
  const built = index !== undefined && existsSync(index);
  const isApi = (p: string) => API_PREFIXES.some((prefix) => p === prefix || p.startsWith(`${prefix}/`));
  const fallback: RequestHandler = (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isApi(req.path) || !req.accepts('html')) return next();
    if (built && index) return res.sendFile(index);
    res
      .status(200)
      .type('html')
      .send('<!doctype html><title>Parley</title><h1>Parley</h1><p>The service is running. The UI has not been built: run <code>npm run build</code>.</p>');
  };
  return built && rendererDir ? [express.static(rendererDir, { index: false, maxAge: '1h' }), fallback] : [fallback];
}

/** Builds the Express app from its services. Never listens. */
export function createApp(services: Services): Express {
  const app = express();
  app.disable('x-powered-by');
  // Forwarded headers (client address for the rate limiters, scheme) only from PARLEY_TRUSTED_PROXIES.
  const proxies = addressSet(services.boot.trustedProxies);
  app.set('trust proxy', (address: string) => proxies.has(address));
  app.set('query parser', 'simple');
  app.locals.publicUrls = services.boot.publicUrls;
  app.use(requireKnownHost(services.hostAllowlist));
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          'img-src': ["'self'", 'data:', 'blob:'],
          // Read-aloud plays the service's speech from blob: URLs.
          'media-src': ["'self'", 'blob:'],
          // 'self' covers ws(s) to this very origin; a bare ws:/wss: would reach any port on any host.
          'connect-src': ["'self'"],
          'style-src': ["'self'", "'unsafe-inline'"],
          'upgrade-insecure-requests': null,
        },
      },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: false,
    }),
  );
  app.use(corsPolicy(services.boot.corsOrigins));
  app.use(cookieParser());
  app.use(requireSameOriginForCookies([...services.boot.corsOrigins, ...services.boot.publicUrls], ['/auths/signout', '/api/v1/auths/signout']));
  app.use(jsonBody(services.boot.maxJsonBytes));
  app.use(authenticate(services.auth));
  app.use(auditAdminActions(services.log));
  mountRoutes(app, services);
  app.use(serveRenderer(services.boot.rendererDir));
  app.use(notFoundHandler);
  // Failures before the /v1 router ran (a body over the size limit) still answer in OpenAI's shape there.
  app.use('/v1', openAiErrorHandler(services.log));
  app.use(errorHandler(services.log));
  return app;
}
