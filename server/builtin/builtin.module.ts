import path from 'node:path';
import type { ConfigService } from '../config';
import type { BuiltinConfig, BuiltinConfigResponse, BuiltinConfigUpdate } from '../contracts/builtin';
import type { Clock } from '../platform/clock';
import type { Db } from '../platform/db/knex';
import type { Logger } from '../platform/log';
import type { ProcessStarter } from '../platform/process-starter';
import type { ProviderHandle } from '../providers';
import { BuiltinSection, runtimeSettings } from './builtin-config';
import { BUILTIN_URL, createBuiltinProvider } from './builtin-provider';
import { createBuiltinReranker } from './builtin-reranker';
import { createBuiltinRepo } from './builtin.repo';
import { createModelLibrary } from './model-library';
import { createRuntimeHost } from './runtime/runtime-host';

export interface BuiltinDeps {
  db: Db;
  config: ConfigService;
  dataDir: string;
  clock: Clock;
  log: Logger;
  /** Download retry tuning (tests use short back-offs). */
  downloadRetries?: number;
  downloadBackoffMs?: number;
  /** Starts the runtime process (the desktop app injects Electron's utilityProcess). */
  startProcess?: ProcessStarter;
  /** The speech engine that loads transcription models (whisper.cpp files) before they are listed. */
  speech?: { probe: (file: string) => Promise<void>; unload: (file: string) => Promise<void> };
}

/**
 * Built-in local models: the library (`<data dir>/models`), the runtime process that runs them,
 * and the `builtin` provider handle the model registry lists beside compat and local providers.
 */
export async function createBuiltin(deps: BuiltinDeps) {
  const { config, log, clock } = deps;
  const runtime = createRuntimeHost({
    settings: async () => runtimeSettings(await config.get(BuiltinSection)),
    idleMs: async () => (await config.get(BuiltinSection)).idle_unload_seconds * 1000,
    log,
    startProcess: deps.startProcess,
  });
  const library = createModelLibrary({
    repo: createBuiltinRepo(deps.db),
    dir: path.join(deps.dataDir, 'models'),
    probe: (file) => runtime.probe(file),
    unload: (id) => runtime.unload(id),
    speech: deps.speech,
    clock,
    log,
    retries: deps.downloadRetries,
    retryBackoffMs: deps.downloadBackoffMs,
  });
  await library.init();
  const provider = createBuiltinProvider({ library, runtime });
  const listeners: Array<() => void> = [];
  const handle: ProviderHandle = { kind: 'builtin', index: 0, url: BUILTIN_URL, config: {}, enabled: true, provider };

  return {
    library,
    runtime,
    provider,
    /** Reranking with a library model of kind `reranker` (retrieval's `builtin` reranking engine). */
    reranker: createBuiltinReranker({ library, runtime }),
    /** The provider handle while built-in models are enabled. */
    async handle(): Promise<ProviderHandle | undefined> {
      return (await config.get(BuiltinSection)).enabled ? handle : undefined;
    },
    async getConfig(): Promise<BuiltinConfigResponse> {
      const stored = await config.get(BuiltinSection);
      const status = runtime.status();
      return { ...stored, runtime: { ...status, threads: status.threads || runtimeSettings(stored).threads } };
    },
    /** Saves settings; the runtime restarts with them at its next request. */
    async updateConfig(patch: BuiltinConfigUpdate): Promise<BuiltinConfigResponse> {
      const before: BuiltinConfig = await config.get(BuiltinSection);
      await config.update(BuiltinSection, patch);
      const after = await config.get(BuiltinSection);
      const runtimeChanged = (['threads', 'gpu_layers', 'memory_budget_mb', 'context_size'] as const).some((key) => before[key] !== after[key]);
      if (runtimeChanged || !after.enabled) runtime.restart();
      if (before.enabled !== after.enabled) for (const listener of listeners) listener();
      return this.getConfig();
    },
    /** Calls `listener` when the models the provider offers change (library edits, enable/disable). */
    onModelsChange(listener: () => void): void {
      listeners.push(listener);
      library.onChange(listener);
    },
    async close(): Promise<void> {
      await library.stop();
      await runtime.close();
    },
  };
}
export type Builtin = Awaited<ReturnType<typeof createBuiltin>>;
