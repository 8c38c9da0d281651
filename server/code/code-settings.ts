import { defineSection, type ConfigService } from '../config';
import { CodeExecutionConfig, DEFAULT_CODE_EXECUTION_CONFIG } from '../contracts/code';

/** The code execution settings (Admin → Code execution; `/api/v1/configs/code_execution`). */
export const CodeExecutionSection = defineSection<CodeExecutionConfig>('code_execution', CodeExecutionConfig, DEFAULT_CODE_EXECUTION_CONFIG);

/** Reads and replaces the code execution settings. */
export function createCodeSettings(config: Pick<ConfigService, 'get' | 'set'>) {
  return {
    get: () => config.get(CodeExecutionSection),
    set: (next: CodeExecutionConfig) => config.set(CodeExecutionSection, next),
  };
}
export type CodeSettings = ReturnType<typeof createCodeSettings>;
