export type { ChatParams, ResolvedModel, ModelResolution } from './model-resolution';
export type { Caller, ModelsService } from './models.service';
export { modelUnavailable } from './models.errors';
export { ModelsConfigSection } from './models-config';
export { baseModelsRoutes, modelsRoutes } from './models.routes';
export { createModels, type Models, type ModelsDeps } from './models.module';
