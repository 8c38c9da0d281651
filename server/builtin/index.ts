export { builtinRoutes } from './builtin.routes';
export { BuiltinSection, autoThreads } from './builtin-config';
export { createBuiltin, type Builtin, type BuiltinDeps } from './builtin.module';
export type { ModelLibrary } from './model-library';
