import { z } from 'zod';
import { CodeExecuteRequest, CodeExecuteResponse, CodeExecutionConfig } from '../contracts/code';
import { forbidden } from '../platform/http/errors';
import { route, type Routes } from '../platform/http/route';
import type { CodeRunner } from './code-runner';
import type { CodeSettings } from './code-settings';

/** `GET/POST /api/v1/configs/code_execution` (Open WebUI's shape). Mounted at `/api/v1/configs/code_execution`. */
export function codeConfigRoutes(settings: CodeSettings): Routes {
  return [
    route({ method: 'get', path: '/', guard: 'admin', summary: 'Code execution settings (the Run button, the code interpreter, limits)', response: CodeExecutionConfig }, () => settings.get()),
    route({ method: 'post', path: '/', guard: 'admin', body: CodeExecutionConfig, invalid: 400, summary: 'Replace the code execution settings', response: CodeExecutionConfig }, ({ body }) => settings.set(body)),
  ];
}

/** `POST /api/v1/utils/code/execute`: the Run button of Python code blocks. Mounted at `/api/v1/utils`. */
export function codeExecuteRoutes(deps: { settings: CodeSettings; runner: CodeRunner }): Routes {
  return [
    route(
      {
        method: 'post',
        path: '/code/warm',
        guard: 'user',
        permission: 'features.code_interpreter',
        summary: 'Parley: start the caller’s Python sandbox now (the UI asks when the code interpreter is turned on), so the first run does not wait for it',
        response: z.object({ status: z.boolean() }),
      },
      async ({ user }) => {
        const config = await deps.settings.get();
        if (!config.ENABLE_CODE_INTERPRETER && !config.ENABLE_CODE_EXECUTION) return { status: false };
        deps.runner.warm(user.id);
        return { status: true };
      },
    ),
    route(
      {
        method: 'post',
        path: '/code/execute',
        guard: 'user',
        permission: 'features.code_interpreter',
        authorize: async () => {
          if (!(await deps.settings.get()).ENABLE_CODE_EXECUTION) throw forbidden('Code execution is turned off', 'CODE_EXECUTION_DISABLED');
        },
        body: CodeExecuteRequest,
        invalid: 400,
        summary: 'Run Python in the caller’s offline sandbox: {stdout, stderr, result} (and the files it wrote)',
        response: CodeExecuteResponse,
      },
      async ({ user, body }) => {
        const run = await deps.runner.run({ user, space: 'run-button', fresh: true, fileIds: body.file_ids ?? [] }, body.code);
        return {
          stdout: run.stdout,
          stderr: [run.stderr, run.error].filter(Boolean).join('\n'),
          result: run.result ?? '',
          error: run.error,
          files: run.files,
          duration_ms: run.durationMs,
        };
      },
    ),
  ];
}
