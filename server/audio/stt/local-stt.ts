import type { Logger } from '../../platform/log';
import { createWorkerRequests } from '../../platform/worker-requests';
import type { EngineErrorCode, EngineReply, EngineRequest, TranscribeOptions, TranscriptResult, WhisperModelRef } from './protocol';
import type { WhisperEngine } from './whisper-engine';

/** A local transcription failed; `code` says how. */
export class LocalSttError extends Error {
  constructor(
    readonly code: EngineErrorCode,
    message: string,
  ) {
    super(message);
    this.name = code === 'aborted' ? 'AbortError' : 'LocalSttError';
  }
}

type Reply = EngineReply & { id: number };

/**
 * The service's side of local speech-to-text: whisper.cpp on one worker thread (started on
 * first use, restarted after it dies), or in-process where no worker can start. Requests carry a
 * job number so a cancelled request (the caller hung up) can stop its transcription.
 */
export function createLocalStt(options: { log: Logger; idleMs?: () => number }) {
  const requests = createWorkerRequests<Reply>({ entry: 'audio/stt/whisper.worker', name: 'the speech worker', log: options.log });
  let inProcess: Promise<WhisperEngine> | undefined;
  let nextJob = 1;

  async function send(request: EngineRequest): Promise<TranscriptResult | undefined> {
    let reply: EngineReply;
    if (requests.ready()) {
      reply = await requests.request<EngineReply>({ ...request }, (r) => ({ value: r }));
    } else {
      inProcess ??= (async () => {
        const { createWhisperEngine } = await import('./whisper-engine');
        return createWhisperEngine();
      })();
      reply = await (await inProcess).handle(request);
    }
    if (!reply.ok) throw new LocalSttError(reply.code, reply.message);
    return reply.result;
  }

  return {
    /** Transcribes a recording with a model of the library; `signal` cancels it. */
    async transcribe(model: WhisperModelRef, audio: Uint8Array, transcribeOptions: TranscribeOptions, signal?: AbortSignal): Promise<TranscriptResult> {
      const job = nextJob++;
      const onAbort = () => void send({ type: 'abort', job }).catch(() => undefined);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        if (signal?.aborted) throw new LocalSttError('aborted', 'The transcription was cancelled');
        return (await send({ type: 'transcribe', job, model, audio, options: transcribeOptions, idleMs: options.idleMs?.() ?? 300_000 }))!;
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
    /** Loads a file and transcribes a second of silence; rejects with why it cannot run. */
    async probe(path: string, threads: number): Promise<void> {
      await send({ type: 'probe', path, threads });
    },
    /** Unloads the model at `path` (or any) before its file goes. */
    async unload(path?: string): Promise<void> {
      await send({ type: 'unload', ...(path ? { path } : {}) }).catch(() => undefined);
    },
    /** Stops the worker (shutdown), releasing the model first. */
    async stop(): Promise<void> {
      await requests.stop(async (worker) => {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 2000);
          worker.on('message', (reply: Reply) => {
            if (reply.id === 0) {
              clearTimeout(timer);
              resolve();
            }
          });
          worker.postMessage({ type: 'close', id: 0 });
        });
      });
      if (inProcess) await (await inProcess).handle({ type: 'close' });
    },
  };
}
export type LocalStt = ReturnType<typeof createLocalStt>;
