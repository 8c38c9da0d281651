import { PythonToolConfig } from '../../contracts/tools';
import { badRequest } from '../../platform/http/errors';
import { describeIssue } from '../../platform/http/validate';
import { ToolCallError, clipResult } from '../tool-errors';
import type { ToolKind } from '../tool-kind';
import { PythonToolError, type PythonSandbox, type RunLimits } from './python-sandbox';

/** Default limits of one call. */
export const PYTHON_DEFAULTS = { timeoutSeconds: 10, memoryMb: 256 };

function limitsOf(config: PythonToolConfig): RunLimits {
  return { timeoutMs: (config.timeout ?? PYTHON_DEFAULTS.timeoutSeconds) * 1000, memoryMb: config.memory_mb ?? PYTHON_DEFAULTS.memoryMb };
}

/** `python` tools: `config.content` holds a `class Tools`; each public method is a function. */
export function pythonToolKind(sandbox: PythonSandbox): ToolKind {
  return {
    async prepare(raw) {
      const parsed = PythonToolConfig.safeParse(raw);
      if (!parsed.success) throw badRequest(`Invalid Python tool config: ${describeIssue(parsed.error)}`);
      const config = parsed.data;
      let specs;
      try {
        // Reading the class runs its body and constructor: give it at least 15 s.
        specs = await sandbox.inspect(config.content, { ...limitsOf(config), timeoutMs: Math.max(15_000, limitsOf(config).timeoutMs) });
      } catch (error) {
        if (error instanceof PythonToolError) {
          const prefix = error.kind === 'syntax' ? 'Python syntax error' : 'The Python tool could not be loaded';
          throw badRequest(`${prefix}: ${error.message}`, 'INVALID_TOOL_CONFIG');
        }
        throw error;
      }
      if (specs.length === 0) throw badRequest('The Python tool defines no functions: add public methods to class Tools', 'INVALID_TOOL_CONFIG');
      return { config, specs };
    },
    async functions(tool) {
      const config = PythonToolConfig.parse(tool.config);
      return tool.specs.map((spec) => ({
        spec,
        async execute(args, user) {
          try {
            return clipResult(await sandbox.call(config.content, spec.name, args, { id: user.id, name: user.name, email: user.email, role: user.role }, limitsOf(config)));
          } catch (error) {
            if (error instanceof PythonToolError) throw new ToolCallError(error.message);
            throw error;
          }
        },
      }));
    },
  };
}
