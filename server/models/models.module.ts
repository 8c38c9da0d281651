import type { ConfigService } from '../config';
import type { ModelsConfig, ModelsConfigUpdate } from '../contracts/models';
import type { Db } from '../platform/db/knex';
import type { Clock } from '../platform/clock';
import type { Logger } from '../platform/log';
import type { PermissionsService } from '../permissions';
import type { Providers } from '../providers';
import { createModelResolution } from './model-resolution';
import { ModelsConfigSection } from './models-config';
import { createModelsRepo } from './models.repo';
import { createModelsService } from './models.service';

export interface ModelsDeps {
  db: Db;
  config: ConfigService;
  permissions: PermissionsService;
  providers: Providers;
  clock: Clock;
  log: Logger;
}

/**
 * The models domain as other domains use it:
 * - `resolveForChat(user, modelId)`: provider, provider model id, params, meta (chat completions);
 * - `available(user)`: what the user may chat with (model picker);
 * - `registry`: the custom-model CRUD of section 4.4.
 */
export function createModels(deps: ModelsDeps) {
  const repo = createModelsRepo(deps.db);
  const resolution = createModelResolution({ repo, permissions: deps.permissions, providers: deps.providers, config: deps.config });
  const registry = createModelsService({
    repo,
    permissions: deps.permissions,
    clock: deps.clock,
    log: deps.log,
    isBaseModelId: async (id) => (await deps.providers.forModel(id)) !== undefined,
    mayUseBase: resolution.mayUseBase,
  });
  return {
    registry,
    resolution,
    resolveForChat: resolution.resolveForChat,
    available: resolution.available,
    async getConfig(): Promise<ModelsConfig> {
      return deps.config.get(ModelsConfigSection);
    },
    async updateConfig(patch: ModelsConfigUpdate): Promise<ModelsConfig> {
      return deps.config.update(ModelsConfigSection, patch);
    },
  };
}
export type Models = ReturnType<typeof createModels>;
