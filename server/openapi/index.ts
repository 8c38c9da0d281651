export { openApiRoutes } from './openapi.routes';
export { buildOpenApiDocument, openApiPath, type OpenApiBuild } from './openapi-document';
