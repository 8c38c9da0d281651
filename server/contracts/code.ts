import { z } from 'zod';
import { MessageStepFile } from './chats';

/**
 * Code execution settings in Open WebUI's shape (`GET/POST /api/v1/configs/code_execution`).
 * Parley runs code in its own Pyodide sandbox (engine `pyodide`); the Jupyter fields are kept
 * and returned so Open WebUI's clients can post the whole form, but Jupyter is not used.
 */
export const CodeExecutionConfig = z.object({
  /** The Run button on Python code blocks (`POST /api/v1/utils/code/execute`). */
  ENABLE_CODE_EXECUTION: z.boolean(),
  CODE_EXECUTION_ENGINE: z.literal('pyodide', { error: "must be 'pyodide': Parley runs code in its own offline sandbox" }),
  CODE_EXECUTION_JUPYTER_URL: z.string().max(2000).nullable().optional(),
  CODE_EXECUTION_JUPYTER_AUTH: z.string().max(100).nullable().optional(),
  CODE_EXECUTION_JUPYTER_AUTH_TOKEN: z.string().max(2000).nullable().optional(),
  CODE_EXECUTION_JUPYTER_AUTH_PASSWORD: z.string().max(2000).nullable().optional(),
  CODE_EXECUTION_JUPYTER_TIMEOUT: z.number().int().min(1).max(3600).nullable().optional(),
  /** The code interpreter in chats (`features.code_interpreter`). */
  ENABLE_CODE_INTERPRETER: z.boolean(),
  CODE_INTERPRETER_ENGINE: z.literal('pyodide', { error: "must be 'pyodide': Parley runs code in its own offline sandbox" }),
  /** Told to the model when the interpreter is on; empty = Parley's default (which names the offline packages). */
  CODE_INTERPRETER_PROMPT_TEMPLATE: z.string().max(20_000).nullable().optional(),
  CODE_INTERPRETER_JUPYTER_URL: z.string().max(2000).nullable().optional(),
  CODE_INTERPRETER_JUPYTER_AUTH: z.string().max(100).nullable().optional(),
  CODE_INTERPRETER_JUPYTER_AUTH_TOKEN: z.string().max(2000).nullable().optional(),
  CODE_INTERPRETER_JUPYTER_AUTH_PASSWORD: z.string().max(2000).nullable().optional(),
  CODE_INTERPRETER_JUPYTER_TIMEOUT: z.number().int().min(1).max(3600).nullable().optional(),
  /** Parley: seconds one run may take before the sandbox is stopped. */
  CODE_EXECUTION_TIMEOUT: z.number().int().min(1).max(600).default(30),
  /** Parley: memory one run may use, in MB. */
  CODE_EXECUTION_MEMORY_MB: z.number().int().min(64).max(2048).default(256),
  /** Parley: code runs the model may make in one answer. */
  CODE_INTERPRETER_MAX_ROUNDS: z.number().int().min(1).max(20).default(5),
  /** Parley: sandboxes (one per person using code) kept at once; each holds a Python interpreter in memory. */
  CODE_EXECUTION_MAX_SANDBOXES: z.number().int().min(1).max(32).default(4),
});
export type CodeExecutionConfig = z.infer<typeof CodeExecutionConfig>;

/** The settings a fresh installation starts with: both on, 30 s and 256 MB per run. */
export const DEFAULT_CODE_EXECUTION_CONFIG: CodeExecutionConfig = {
  ENABLE_CODE_EXECUTION: true,
  CODE_EXECUTION_ENGINE: 'pyodide',
  CODE_EXECUTION_JUPYTER_URL: '',
  CODE_EXECUTION_JUPYTER_AUTH: '',
  CODE_EXECUTION_JUPYTER_AUTH_TOKEN: '',
  CODE_EXECUTION_JUPYTER_AUTH_PASSWORD: '',
  CODE_EXECUTION_JUPYTER_TIMEOUT: 60,
  ENABLE_CODE_INTERPRETER: true,
  CODE_INTERPRETER_ENGINE: 'pyodide',
  CODE_INTERPRETER_PROMPT_TEMPLATE: '',
  CODE_INTERPRETER_JUPYTER_URL: '',
  CODE_INTERPRETER_JUPYTER_AUTH: '',
  CODE_INTERPRETER_JUPYTER_AUTH_TOKEN: '',
  CODE_INTERPRETER_JUPYTER_AUTH_PASSWORD: '',
  CODE_INTERPRETER_JUPYTER_TIMEOUT: 60,
  CODE_EXECUTION_TIMEOUT: 30,
  CODE_EXECUTION_MEMORY_MB: 256,
  CODE_INTERPRETER_MAX_ROUNDS: 5,
  CODE_EXECUTION_MAX_SANDBOXES: 4,
};

/** Body of `POST /api/v1/utils/code/execute`. */
export const CodeExecuteRequest = z.object({
  code: z.string().min(1, 'must not be empty').max(200_000),
  /** Parley: files (ids of the caller's own files) to put read-only in the working folder. */
  file_ids: z.array(z.string().min(1).max(100)).max(20).optional(),
});
export type CodeExecuteRequest = z.infer<typeof CodeExecuteRequest>;

/** A file the code wrote, stored as one of the caller's files. */
export const CodeOutputFile = MessageStepFile;
export type CodeOutputFile = MessageStepFile;

/** Answer of `POST /api/v1/utils/code/execute` (Open WebUI's `{stdout, stderr, result}`, plus what Parley adds). */
export const CodeExecuteResponse = z.object({
  stdout: z.string(),
  /** What the code wrote to stderr, then its traceback when it raised. */
  stderr: z.string(),
  /** `repr()` of the last expression, or an empty string. */
  result: z.string(),
  /** Parley: the traceback alone when the code raised, else null. */
  error: z.string().nullable(),
  /** Parley: files the code wrote in its working folder. */
  files: z.array(CodeOutputFile),
  /** Parley: how long the run took, in milliseconds. */
  duration_ms: z.number(),
});
export type CodeExecuteResponse = z.infer<typeof CodeExecuteResponse>;
