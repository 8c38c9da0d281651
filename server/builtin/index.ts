export { builtinRoutes } from './builtin.routes';
export { BuiltinSection, autoThreads } from './builtin-config';
export { createBuiltin, type Builtin, type BuiltinDeps } from './builtin.module';
export { LocalRerankError, type BuiltinReranker } from './builtin-reranker';
export type { ModelLibrary } from './model-library';
