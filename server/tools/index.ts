export { toolsRoutes, toolServersRoutes } from './tools.routes';
export type { ResolvedTools, ResolveToolsInput } from './toolset';
export { MCP_TOOL_PREFIX } from './tools.service';
export { ToolCallError } from './tool-errors';
export { promptToolCalls, renderToolsPrompt } from './prompt-calling';
export { createTools, type Tools } from './tools.module';
