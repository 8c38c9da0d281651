import { loadExports } from '../../platform/library-exports';
import type * as WhisperBinding from '@fugood/whisper.node';
import type { TranscribeResult, WhisperContext } from '@fugood/whisper.node';
import { AudioDecodeError, decodeSpeech } from '../decode/decode-audio';
import { toInt16, WHISPER_RATE } from '../decode/resample';
import { speechWindows } from './speech-windows';
import type { EngineErrorCode, EngineReply, EngineRequest, TranscribeOptions, TranscriptResult, WhisperModelRef } from './protocol';

type Binding = Pick<typeof WhisperBinding, 'initWhisper' | 'addNativeLogListener' | 'toggleNativeLog'>;

class EngineFailure extends Error {
  constructor(
    readonly code: EngineErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The last lines whisper.cpp logged, to say why a model did not load. */
const LOG_LINES = 20;

/**
 * whisper.cpp through `@fugood/whisper.node`, as run on the speech worker thread: decodes the
 * upload, keeps one model loaded (the last one used, released after `idleMs` without work),
 * transcribes one recording at a time (the binding runs it on libuv's pool; JS here only waits),
 * window by window, so a cancelled transcription stops after the window in progress. The binding loads on first use.
 */
export function createWhisperEngine() {
  let binding: Promise<Binding> | undefined;
  const logs: string[] = [];
  let loaded: { path: string; context: WhisperContext } | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  /** Jobs received and not yet answered. */
  const running = new Set<number>();
  const aborted = new Set<number>();

  const load = (): Promise<Binding> =>
    (binding ??= loadExports(import('@fugood/whisper.node'), '@fugood/whisper.node', 'initWhisper', 'addNativeLogListener', 'toggleNativeLog').then(async (module) => {
      // Routed to a buffer: whisper.cpp would otherwise print every load to the service's stderr.
      module.addNativeLogListener((_level, text) => {
        logs.push(text.trim());
        if (logs.length > LOG_LINES) logs.shift();
      });
      await module.toggleNativeLog(true);
      return module;
    }));

  async function release(): Promise<void> {
    clearTimeout(idleTimer);
    const current = loaded;
    loaded = undefined;
    await current?.context.release();
  }

  async function contextFor(path: string): Promise<WhisperContext> {
    if (loaded?.path === path) return loaded.context;
    await release();
    const { initWhisper } = await load();
    logs.length = 0;
    try {
      const context = await initWhisper({ filePath: path, useGpu: false });
      loaded = { path, context };
      return context;
    } catch (error) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const telling = [...logs].reverse().find((line) => /error|failed|invalid|unknown|wrong/i.test(line));
      throw new EngineFailure('load', `whisper.cpp could not load the model${telling ? `: ${telling.replace(/^\w+: /, '')}` : ` (${(error as Error).message})`}`);
    }
  }

  /** Runs `work` after everything queued before it (one model, one transcription at a time). */
  function serial<T>(work: () => Promise<T>): Promise<T> {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  }

  async function run(context: WhisperContext, pcm: Int16Array, options: TranscribeOptions, prompt?: string): Promise<TranscribeResult> {
    const buffer = pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength) as ArrayBuffer;
    const { promise } = context.transcribeData(buffer, {
      language: options.language ?? 'auto',
      maxThreads: options.threads,
      temperature: 0,
      ...(prompt ? { prompt } : {}),
    });
    return promise;
  }

  async function transcribe(job: number, model: WhisperModelRef, audio: Uint8Array, options: TranscribeOptions, idleMs: number): Promise<TranscriptResult> {
    let speech;
    try {
      speech = await decodeSpeech(audio);
    } catch (error) {
      if (error instanceof AudioDecodeError) throw new EngineFailure('audio', error.message);
      throw error;
    }
    if (speech.seconds > options.maxSeconds) throw new EngineFailure('too-long', `The recording lasts ${Math.round(speech.seconds)} s; at most ${options.maxSeconds} s can be transcribed`);
    if (speech.seconds < 0.1) throw new EngineFailure('audio', 'The recording is empty (less than 0.1 s of audio)');
    const pcm = toInt16(speech.samples);
    const cancelled = () => new EngineFailure('aborted', 'The transcription was cancelled');
    return serial(async () => {
      if (aborted.delete(job)) throw cancelled();
      clearTimeout(idleTimer);
      const context = await contextFor(model.path);
      try {
        const texts: string[] = [];
        const segments: TranscriptResult['segments'] = [];
        let language = options.language ?? 'auto';
        // The binding cannot interrupt whisper.cpp once started, so a cancel takes effect between windows.
        for (const window of speechWindows(speech.samples)) {
          if (aborted.delete(job)) throw cancelled();
          const previous = texts.join(' ').slice(-200);
          const result = await run(context, pcm.subarray(window.start, window.end), options, texts.length === 0 ? options.prompt : previous || options.prompt);
          if (result.isAborted || aborted.delete(job)) throw cancelled();
          const offset = window.start / WHISPER_RATE;
          const text = result.result.trim();
          if (text) texts.push(text);
          if (result.language) language = result.language;
          for (const s of result.segments) segments.push({ start: offset + s.t0 / 1000, end: offset + s.t1 / 1000, text: s.text.trim() });
        }
        return { text: texts.join(' '), language, duration: pcm.length / WHISPER_RATE, segments };
      } finally {
        if (idleMs > 0) idleTimer = setTimeout(() => void serial(release), idleMs).unref();
      }
    });
  }

  /** Loads a file and transcribes a second of silence with it: what a model must do to be offered. */
  async function probe(path: string, threads: number): Promise<void> {
    await serial(async () => {
      await release();
      const context = await contextFor(path);
      try {
        await run(context, new Int16Array(WHISPER_RATE), { threads, maxSeconds: 2 });
      } finally {
        await release();
      }
    });
  }

  return {
    /** Answers one request; never throws. */
    async handle(request: EngineRequest): Promise<EngineReply> {
      try {
        switch (request.type) {
          case 'transcribe':
            running.add(request.job);
            try {
              return { ok: true, result: await transcribe(request.job, request.model, request.audio, request.options, request.idleMs) };
            } finally {
              running.delete(request.job);
              aborted.delete(request.job);
            }
          case 'probe':
            await probe(request.path, request.threads);
            return { ok: true };
          case 'abort':
            // Not the binding's stop(): it leaves the transcription's promise unsettled for ever
            // (1.1.3). The window in progress finishes; the next one is not started.
            if (running.has(request.job)) aborted.add(request.job);
            return { ok: true };
          case 'unload':
            if (!request.path || loaded?.path === request.path) await serial(release);
            return { ok: true };
          case 'close':
            await serial(release);
            // The log hook holds a thread-safe function: released before the thread ends.
            if (binding) await (await binding).toggleNativeLog(false);
            return { ok: true };
        }
      } catch (error) {
        if (error instanceof EngineFailure) return { ok: false, code: error.code, message: error.message };
        return { ok: false, code: 'failed', message: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
export type WhisperEngine = ReturnType<typeof createWhisperEngine>;
