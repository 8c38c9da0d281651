import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { CodeExecutionConfig, CodeOutputFile } from '../contracts/code';
import { fileContentUrl, type FilesService } from '../files';
import { HttpError } from '../platform/http/errors';
import type { Logger } from '../platform/log';
import { PythonToolError, type SandboxFile } from '../tools';
import type { SandboxPool } from './sandbox-pool';

/** Longest output (stdout, stderr, the last value) kept from one run, in characters. */
export const OUTPUT_LIMIT = 20_000;
/** Most files one run may hand back, and their size each. */
export const MAX_OUTPUT_FILES = 10;
export const MAX_OUTPUT_FILE_BYTES = 20 * 1024 * 1024;
/** Most bytes of the chat's files put into the sandbox at once (they live in its memory). */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

/** What one run did, as the chat and the Run button show it. */
export interface CodeRun {
  stdout: string;
  stderr: string;
  result: string | null;
  /** The traceback, or why the run was stopped (time or memory limit); null when it ran through. */
  error: string | null;
  files: CodeOutputFile[];
  /** Files the run wrote that were not kept (over a limit, or of a type uploads refuse), with why. */
  skipped: string[];
  durationMs: number;
}

/** Who runs code, and where its variables are kept between runs (a chat, or a Run button click). */
export interface RunContext {
  user: { id: string; role: string };
  /** Namespace key: runs of one chat share variables. */
  space: string;
  /** Start the namespace anew (a Run button click sees no earlier variables). */
  fresh?: boolean;
  /** The caller's files to put read-only in the working folder. */
  fileIds: readonly string[];
}

/** A file name safe in the sandbox's working folder (no folders, no dots-only names), unique among `taken`. */
export function sandboxName(raw: string, taken: Set<string>): string {
  const base = [...path.basename(raw.replace(/\\/g, '/'))].map((ch) => (ch.charCodeAt(0) < 32 ? '_' : ch)).join('').slice(0, 120);
  const safe = base && !/^\.+$/.test(base) ? base : 'file';
  let name = safe;
  for (let n = 2; taken.has(name); n += 1) {
    const ext = path.extname(safe);
    name = `${safe.slice(0, safe.length - ext.length)} (${n})${ext}`;
  }
  taken.add(name);
  return name;
}

/**
 * Runs Python for a person in their own sandbox: their files go in read-only, what the code
 * writes comes back as their stored files (typed and checked like uploads). Limits come from the
 * code execution settings. A run stopped by a limit is an outcome (`error`), not a failure.
 */
export function createCodeRunner(deps: { pool: SandboxPool; files: FilesService; config: () => Promise<CodeExecutionConfig>; log: Logger }) {
  async function inputs(ctx: RunContext): Promise<SandboxFile[]> {
    const taken = new Set<string>();
    const out: SandboxFile[] = [];
    let total = 0;
    for (const id of ctx.fileIds) {
      const row = await deps.files.requireReadable(ctx.user, id);
      total += row.size;
      if (total > MAX_INPUT_BYTES) {
        deps.log.info({ fileId: id }, 'a chat file was left out of the code sandbox (input limit)');
        continue;
      }
      const bytes = await readFile(deps.files.pathOf(row.id)).catch(() => undefined);
      if (bytes) out.push({ name: sandboxName(row.filename, taken), bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
    }
    return out;
  }

  async function store(userId: string, made: SandboxFile[], skipped: string[]): Promise<CodeOutputFile[]> {
    const stored: CodeOutputFile[] = [];
    for (const file of made) {
      try {
        const row = await deps.files.create({ userId, filename: path.basename(file.name), stream: Readable.from([Buffer.from(file.bytes)]), purpose: 'code', meta: { source: 'code_interpreter' } });
        stored.push({ id: row.id, name: row.filename, type: row.mime_type, size: row.size, url: fileContentUrl(row.id) });
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        skipped.push(`${file.name} (${error.message})`);
      }
    }
    return stored;
  }

  return {
    /** Runs `code`; throws 503 only when the sandbox cannot start. */
    async run(ctx: RunContext, code: string): Promise<CodeRun> {
      const config = await deps.config();
      const files = await inputs(ctx);
      const limits = { timeoutMs: config.CODE_EXECUTION_TIMEOUT * 1000, memoryMb: config.CODE_EXECUTION_MEMORY_MB };
      return deps.pool.use(ctx.user.id, async (sandbox) => {
        const started = performance.now();
        try {
          const ran = await sandbox.run(code, { space: ctx.space, fresh: ctx.fresh, files, outputLimit: OUTPUT_LIMIT, maxFiles: MAX_OUTPUT_FILES, maxFileBytes: MAX_OUTPUT_FILE_BYTES }, limits);
          const durationMs = Math.round(performance.now() - started);
          const skipped = ran.skipped.map((name) => `${name} (over the limit of ${MAX_OUTPUT_FILES} files of ${MAX_OUTPUT_FILE_BYTES / 1024 / 1024} MB)`);
          const stored = await store(ctx.user.id, ran.files, skipped);
          return { stdout: ran.stdout, stderr: ran.stderr, result: ran.result, error: ran.error, files: stored, skipped, durationMs };
        } catch (error) {
          if (!(error instanceof PythonToolError) || error.kind === 'unavailable') {
            throw new HttpError(503, 'CODE_SANDBOX_UNAVAILABLE', `The Python sandbox is not available: ${error instanceof Error ? error.message : String(error)}`);
          }
          const why =
            error.kind === 'timeout'
              ? `Stopped: the code ran longer than ${config.CODE_EXECUTION_TIMEOUT} s. Its variables were reset.`
              : error.kind === 'memory'
                ? `Stopped: the code used more than ${config.CODE_EXECUTION_MEMORY_MB} MB of memory. Its variables were reset.`
                : `The Python sandbox stopped: ${error.message}. Its variables were reset.`;
          return { stdout: '', stderr: '', result: null, error: why, files: [], skipped: [], durationMs: Math.round(performance.now() - started) };
        }
      });
    },
    /** Starts the person's sandbox now, so their first run does not wait for Python to load. */
    warm(userId: string): void {
      deps.pool.warm(userId);
    },
  };
}
export type CodeRunner = ReturnType<typeof createCodeRunner>;
