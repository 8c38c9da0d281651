import type { ConfigService } from '../config';
import type { Role } from '../contracts/auth';
import type { FilesService } from '../files';
import type { Logger } from '../platform/log';
import { createCodeRunner } from './code-runner';
import { createCodeSettings } from './code-settings';
import { createInterpreterPlug } from './interpreter';
import { createSandboxPool } from './sandbox-pool';

/**
 * Code execution: per-person Python sandboxes, the runner that feeds them files and stores what
 * they write, the chat's code interpreter (plugged into the completion pipeline) and its settings.
 * Pyodide loads on a person's first run (or when their answer with the interpreter starts).
 */
export function createCode(deps: { config: Pick<ConfigService, 'get' | 'set'>; files: FilesService; allowed(user: { id: string; role: Role }): Promise<boolean>; log: Logger }) {
  const settings = createCodeSettings(deps.config);
  const pool = createSandboxPool({ log: deps.log, max: async () => (await settings.get()).CODE_EXECUTION_MAX_SANDBOXES });
  const runner = createCodeRunner({ pool, files: deps.files, config: settings.get, log: deps.log });
  const interpreter = createInterpreterPlug({ runner, config: settings.get, allowed: deps.allowed });
  return {
    settings,
    runner,
    interpreter,
    pool,
    /** The switches the UI reads from `/api/config` (the Run button, the interpreter toggle). */
    async features() {
      const config = await settings.get();
      return { enable_code_execution: config.ENABLE_CODE_EXECUTION, enable_code_interpreter: config.ENABLE_CODE_INTERPRETER };
    },
    close: () => pool.close(),
  };
}
export type Code = ReturnType<typeof createCode>;
