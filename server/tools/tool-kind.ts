import type { FunctionSpec } from '../contracts/tools';

/** Who a tool runs for (Python tools receive it as `__user__`). */
export interface ToolUser {
  id: string;
  name?: string;
  email?: string;
  role: string;
}

/** One function of a tool, ready to run. */
export interface ToolFunction {
  spec: FunctionSpec;
  /** Runs the function; answers text for the model. Throws ToolCallError for failures the model should hear. */
  execute(args: Record<string, unknown>, user: ToolUser, signal: AbortSignal): Promise<string>;
}

/** A config checked for its kind: what to store, the secret to keep aside, the function specs. */
export interface PreparedTool {
  config: Record<string, unknown>;
  apiKey?: string;
  specs: FunctionSpec[];
}

/** A stored tool as its kind sees it. */
export interface StoredTool {
  id: string;
  name: string;
  description: string;
  config: Record<string, unknown>;
  specs: FunctionSpec[];
  apiKey?: string;
  updatedAt: number;
}

/**
 * What each tool type provides: `prepare` checks a config (throwing an HttpError 400 that names
 * the problem) and reads the function specs; `functions` makes them callable.
 */
export interface ToolKind {
  prepare(config: Record<string, unknown>, tool: { name: string; description: string }): Promise<PreparedTool>;
  functions(tool: StoredTool): Promise<ToolFunction[]>;
}
