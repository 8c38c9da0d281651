import type { FunctionSpec } from '../../contracts/tools';

/** What to run. `key` names a cached `Tools` instance (source hash). */
export type SandboxJob = { op: 'inspect'; key: string; source: string } | { op: 'call'; key: string; source: string; name: string; args: string; user: string };

/** A request to the Pyodide worker. */
export type SandboxRequest = SandboxJob & { id: number; memoryLimitBytes: number };

/** Why a sandboxed run failed. */
export type SandboxFailure = 'syntax' | 'python' | 'memory' | 'timeout' | 'crashed';

/** The worker's answer to one request. */
export type SandboxResponse =
  | { id: number; ok: true; specs?: FunctionSpec[]; result?: string }
  | { id: number; ok: false; kind: SandboxFailure; message: string };

/** The worker's first message once Pyodide is loaded (or could not be). */
export type SandboxReady = { ready: true } | { ready: false; message: string };
