export { createCompletionsService, type CompletionsService, type CompletionsDeps, type CompletionResult } from './completions.service';
export { completionsRoutes } from './completions.routes';
export { ChunkWriter, type ChunkExtensions, type ChunkIdentity } from './chunk-writer';
export type {
  AnswerOutcome,
  ClientTools,
  CodeBlock,
  CodeInterpreterPlug,
  CompletionCaller,
  FileRef,
  ImageGenerationPlug,
  MemoryPlug,
  NoteSourcer,
  PipelineEvent,
  PreparedCompletion,
  PreparedImageGeneration,
  PreparedInterpreter,
  RetrievalInput,
  RetrievalResult,
  Retriever,
  ToolResolver,
  ToolSet,
  ToolsInput,
  WebSearchPlug,
} from './pipeline-types';
export { injectContext, CONTEXT_TEMPLATE } from './stages/retrieval';
