export { createKnowledge, type Knowledge } from './knowledge.module';
export { knowledgeRoutes } from './knowledge.routes';
export { fileCollection, type KnowledgeService, type KnowledgeCaller, type FileRemovedHook } from './knowledge.service';
export { createRagStage, type RagInput, type RagResult, type SearchedSource } from './rag';
