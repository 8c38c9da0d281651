import { z } from 'zod';
import { AvailableModel, BaseModel, CreateModelRequest, Model, ModelIdQuery, ModelListEntry, ModelListQuery, ModelsConfig, ModelsConfigUpdate, ModelsImportRequest, UpdateModelRequest } from '../contracts/models';
import { isEmbeddingModel } from '../contracts/model-kind';
import { route, type Routes } from '../platform/http/route';
import { modelsPermissionRequired } from './models.errors';
import type { Models } from './models.module';

/** GET /api/models (admin): the merged base models of every enabled provider. Mounted at `/api/models`. */
export function baseModelsRoutes(models: Models): Routes {
  return [route({ method: 'get', path: '/', guard: 'admin', summary: 'Base models of every enabled provider', response: z.array(BaseModel) }, () => models.resolution.baseModels())];
}

/** Section 4.4 plus the model picker and the registry setting. Mounted at `/api/v1/models`. Model ids may hold `/`, so they travel as `?id=`. */
export function modelsRoutes(models: Models): Routes {
  const { registry, resolution } = models;
  return [
    route({ method: 'get', path: '/list', guard: 'user', query: ModelListQuery, summary: 'Registry models the caller may read', response: z.array(ModelListEntry) }, ({ user, query }) =>
      registry.list(user, query.id),
    ),
    // Embedding and reranking models cannot chat: the pickers never offer them (API clients still see them in /v1/models).
    route({ method: 'get', path: '/available', guard: 'user', summary: 'Models the caller may chat with (the model picker)', response: z.array(AvailableModel) }, async ({ user }) =>
      (await resolution.available(user)).filter((m) => m.kind === 'custom' || !isEmbeddingModel(m.id)),
    ),
    route({ method: 'get', path: '/model', guard: 'user', query: ModelIdQuery, summary: 'A registry model (`id` in the query: ids may hold `/`)', response: Model }, ({ user, query }) =>
      registry.get(user, query.id),
    ),
    route(
      { method: 'post', path: '/create', guard: 'user', permission: 'workspace.models', refused: modelsPermissionRequired, body: CreateModelRequest, summary: 'Create a custom model', response: Model },
      ({ user, body }) => registry.create(user, body),
    ),
    route({ method: 'post', path: '/model/update', guard: 'user', query: ModelIdQuery, body: UpdateModelRequest, summary: 'Update a registry model', response: Model }, ({ user, query, body }) =>
      registry.update(user, query.id, body),
    ),
    route({ method: 'post', path: '/model/toggle', guard: 'user', query: ModelIdQuery, summary: 'Turn a registry model on or off', response: Model }, ({ user, query }) => registry.toggle(user, query.id)),
    route({ method: 'delete', path: '/model/delete', guard: 'user', query: ModelIdQuery, summary: 'Delete a registry model', response: z.boolean() }, ({ user, query }) => registry.remove(user, query.id)),
    route({ method: 'get', path: '/export', guard: 'admin', summary: 'Every registry model, for POST /import', response: z.array(Model) }, () => registry.exportAll()),
    route(
      { method: 'post', path: '/import', guard: 'admin', body: ModelsImportRequest, summary: 'Create or update registry models from an export (a refused picture falls back to the default)', response: z.literal(true) },
      ({ user, body }) => registry.importModels(user, body.models),
    ),
    route({ method: 'get', path: '/config', guard: 'admin', summary: 'Model registry settings', response: ModelsConfig }, () => models.getConfig()),
    route({ method: 'post', path: '/config', guard: 'admin', body: ModelsConfigUpdate, invalid: 400, summary: 'Update the model registry settings', response: ModelsConfig }, ({ body }) => models.updateConfig(body)),
  ];
}
