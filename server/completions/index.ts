export { createCompletionsService, type CompletionsService, type CompletionsDeps, type CompletionResult } from './completions.service';
export { completionsRoutes } from './completions.routes';
export type {
  AnswerOutcome,
  ClientTools,
  CodeBlock,
  CodeInterpreterPlug,
  CompletionCaller,
  FileRef,
  PipelineEvent,
  PreparedCompletion,
  PreparedInterpreter,
  RetrievalInput,
  RetrievalResult,
  Retriever,
  ToolResolver,
  ToolSet,
  ToolsInput,
} from './pipeline-types';
export { injectContext, CONTEXT_TEMPLATE } from './stages/retrieval';
