import type { Express } from 'express';
import { z } from 'zod';
import { appVersion } from '../platform/app-version';
import { route, type Routes } from '../platform/http/route';
import { listRoutes } from '../platform/http/route-table';
import { buildOpenApiDocument } from './openapi-document';

/** The outline of an OpenAPI 3.1 document. */
const OpenApiDocument = z.looseObject({ openapi: z.literal('3.1.0'), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) });

/** GET /api/openapi.json: the OpenAPI 3.1 reference, built from the mounted routes once. Mounted at `/api`. */
export function openApiRoutes(): Routes {
  let cached: string | undefined;
  return [
    route({ method: 'get', path: '/openapi.json', guard: 'public', summary: 'This document: the OpenAPI 3.1 reference of the service', response: OpenApiDocument }, async ({ req, res }) => {
      cached ??= JSON.stringify(buildOpenApiDocument(listRoutes(req.app as Express), appVersion()).document);
      res.type('application/json').send(cached);
      return undefined;
    }),
  ];
}
