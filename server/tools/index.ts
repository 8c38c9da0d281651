export { toolsRoutes, toolServersRoutes } from './tools.routes';
export type { ResolvedTools, ResolveToolsInput } from './toolset';
export { MCP_TOOL_PREFIX } from './tools.service';
export { ToolCallError } from './tool-errors';
export { promptToolCalls, renderToolsPrompt } from './prompt-calling';
export { createPythonSandbox, PythonToolError, type PythonSandbox, type RunLimits } from './python/python-sandbox';
export type { RunOutput, SandboxFile } from './python/protocol';
export { createTools, type Tools } from './tools.module';
