import os from 'node:os';
import { defineSection } from '../config';
import { BuiltinConfig } from '../contracts/builtin';
import type { RuntimeSettings } from './runtime/protocol';

/** Runtime settings as stored (section `builtin`). */
export const BuiltinSection = defineSection<BuiltinConfig>('builtin', BuiltinConfig, {
  enabled: true,
  idle_unload_seconds: 300,
  threads: 0,
  gpu_layers: 'auto',
  memory_budget_mb: 0,
  context_size: 0,
});

/**
 * Threads for inference from the real core count: llama.cpp is fastest on physical cores and
 * collapses when oversubscribed (4 threads on 2 cores ran ≈ 500× slower than 1 in our measure),
 * so use half the logical CPUs (hyper-threads share a core), at least 1, at most 16.
 */
export function autoThreads(logical: number = os.availableParallelism()): number {
  return Math.max(1, Math.min(16, Math.floor(logical / 2)));
}

/** Concurrent chat sequences per loaded model. */
const SEQUENCES = 4;

/** The settings a runtime process starts with, resolved from the stored ones and the machine. */
export function runtimeSettings(config: BuiltinConfig, totalMemory: number = os.totalmem()): RuntimeSettings {
  return {
    threads: config.threads > 0 ? config.threads : autoThreads(),
    gpuLayers: config.gpu_layers,
    memoryBudget: config.memory_budget_mb > 0 ? config.memory_budget_mb * 1024 * 1024 : Math.max(1024 ** 3, Math.floor(totalMemory * 0.5)),
    contextSize: config.context_size,
    sequences: SEQUENCES,
  };
}
