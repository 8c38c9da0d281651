import type { FunctionSpec } from '../../contracts/tools';

/** A file handed to the sandbox or written by the code in it (a name below the working folder). */
export interface SandboxFile {
  name: string;
  bytes: Uint8Array;
}

/** What a code run printed and made. */
export interface RunOutput {
  stdout: string;
  stderr: string;
  /** `repr()` of the last expression when it is not None (as a notebook cell shows it). */
  result: string | null;
  /** The Python traceback when the code raised; null when it ran through. */
  error: string | null;
  /** Files the code wrote into its working folder (new or changed ones). */
  files: SandboxFile[];
  /** Names of files left out because they passed the count or size limit. */
  skipped: string[];
}

/** What to run. `key` names a cached `Tools` instance (source hash); `space` a code namespace kept between runs (`fresh`: start it anew). */
export type SandboxJob =
  | { op: 'inspect'; key: string; source: string }
  | { op: 'call'; key: string; source: string; name: string; args: string; user: string }
  | { op: 'run'; space: string; fresh?: boolean; code: string; files: SandboxFile[]; outputLimit: number; maxFiles: number; maxFileBytes: number };

/** A request to the Pyodide worker. */
export type SandboxRequest = SandboxJob & { id: number; memoryLimitBytes: number };

/** Why a sandboxed run failed. */
export type SandboxFailure = 'syntax' | 'python' | 'memory' | 'timeout' | 'crashed';

/** The worker's answer to one request. */
export type SandboxResponse =
  | { id: number; ok: true; specs?: FunctionSpec[]; result?: string; run?: RunOutput }
  | { id: number; ok: false; kind: SandboxFailure; message: string };

/** The worker's first message once Pyodide is loaded (or could not be). */
export type SandboxReady = { ready: true } | { ready: false; message: string };
