import { randomBytes } from 'node:crypto';
import { forbidden } from '../platform/http/errors';
import { STOPPED_BY_PERSON, type ChatsService } from '../chats';
import type { CompletionRequest, CompletionSource, StopAnswerRequest, StopAnswerResponse } from '../contracts/completions';
import type { FilesService } from '../files';
import type { Models } from '../models';
import type { Clock } from '../platform/clock';
import type { Logger } from '../platform/log';
import type { RealtimeHub } from '../realtime';
import type { TasksService } from '../tasks';
import type { AnswerOutcome, ClientTools, CodeInterpreterPlug, CompletionCaller, ImageGenerationPlug, MemoryPlug, NoteSourcer, PreparedCompletion, Retriever, ToolResolver, WebSearchPlug } from './pipeline-types';
import { AnswerText } from './answer-text';
import { createFirstTokenGate } from './first-token-gate';
import { RunningAnswers, type RunningAnswer } from './running-answers';
import { contextTokensOf, filesStage } from './stages/files';
import { imagesStage } from './stages/images';
import { seesImages } from '../contracts/vision';
import { recordTurn, type SavedTurn } from './stages/persist';
import { answerStage, type Emit } from './stages/provider';
import { resolveModelStage } from './stages/resolve-model';
import { injectContext, noRetrieval, unmatchedStatus } from './stages/retrieval';
import { afterAnswerStage } from './stages/tasks';
import { injectMemories } from './stages/memory';
import { EMPTY_TOOLS, mergeToolSets, noTools } from './stages/tools';
import { withInterpreter } from './stages/interpreter';
import { makeImageFirst } from './stages/image';

export interface CompletionsDeps {
  models: Pick<Models, 'resolveForChat'>;
  files: FilesService;
  chats: ChatsService;
  tasks: TasksService;
  realtime: Pick<RealtimeHub, 'emitToUser'>;
  /** Stage 3: the knowledge bases' passages for a turn (none without it). */
  retriever?: Retriever;
  /** Stage 4: the tools a turn may call (none without it). */
  tools?: ToolResolver;
  /** Web search for turns that ask for it (`features.web_search`); refused without it. */
  webSearch?: WebSearchPlug;
  /** `features.code_interpreter` (the code domain); refused without it. */
  codeInterpreter?: CodeInterpreterPlug;
  /** `features.image_generation` (the images domain); refused without it. */
  imageGeneration?: ImageGenerationPlug;
  clock: Clock;
  log: Logger;
}

/** The answer, the sources it was given (knowledge and web), and where it was saved. */
export interface CompletionResult {
  outcome: AnswerOutcome;
  sources: CompletionSource[];
  saved?: SavedTurn;
}

/**
 * The chat completion pipeline: resolve model → files → retrieval → tools → provider →
 * persist → tasks. Each stage is its own module; retrieval and tools come from their domains.
 */
export function createCompletionsService(deps: CompletionsDeps) {
  const { models, files, chats, clock, log } = deps;
  let retriever: Retriever = deps.retriever ?? noRetrieval;
  let toolResolver: ToolResolver = deps.tools ?? noTools;
  let codeInterpreter: CodeInterpreterPlug | undefined = deps.codeInterpreter;
  let imageGeneration: ImageGenerationPlug | undefined = deps.imageGeneration;
  const webSearch: WebSearchPlug | undefined = deps.webSearch;
  let memory: MemoryPlug | undefined;
  let noteSources: NoteSourcer | undefined;
  const background = new Set<Promise<void>>();
  const running = new RunningAnswers(() => clock.nowMs());
  const stopBackground = new AbortController();
  // Background tasks wait while any request waits for its first token (at most 2 s), two at a time.
  const gate = createFirstTokenGate({ concurrency: 2, maxWaitMs: 2000 });

  /** The caller's memories relevant to the conversation (403 when memory is not theirs to use). */
  async function recallStage(user: CompletionCaller, request: CompletionRequest, signal: AbortSignal) {
    if (!memory) throw forbidden('Memory is not available', 'MEMORIES_DISABLED');
    return memory.recall({ user, messages: request.messages, signal });
  }

  async function chatStage(user: CompletionCaller, request: CompletionRequest) {
    if (!request.chat_id) return undefined;
    // The chat and its attachments in one query: one statement less per turn queued on the one
    // SQLite connection that every saving stream shares.
    const { chat, attachmentIds } = await chats.requireOwnWithAttachments(user, request.chat_id);
    const parentId = await chats.resolveTurnParent(chat, request.parent_id, request.regenerate ?? false);
    return { id: chat.id, parentId, attachmentIds };
  }

  return {
    /** Marks a request waiting for its first token (background tasks hold off); call the result once it came or the request ended. */
    awaitingFirstToken: () => gate.awaitingFirstToken(),

    /** Replaces the retrieval engine (tests plug a fake one in). */
    useRetriever(next: Retriever): void {
      retriever = next;
    },

    /** Replaces the tool engine (tests plug a fake one in). */
    useTools(next: ToolResolver): void {
      toolResolver = next;
    },

    /** Replaces image generation (tests plug a fake one in). */
    useImageGeneration(next: ImageGenerationPlug): void {
      imageGeneration = next;
    },

    /** Replaces the code interpreter (tests plug a fake one in). */
    useCodeInterpreter(next: CodeInterpreterPlug): void {
      codeInterpreter = next;
    },

    /** Registers memory (the memories domain); without it `features.memory` is refused. */
    useMemory(next: MemoryPlug): void {
      memory = next;
    },

    /** Registers the reader of notes attached to a request (the notes domain). */
    useNotes(next: NoteSourcer): void {
      noteSources = next;
    },

    /** Stages 1–4: everything before the provider is called. Throws HttpErrors (404 model, 403/404 chat or file). */
    async prepare(user: CompletionCaller, request: CompletionRequest, signal: AbortSignal, credential?: string, clientTools?: ClientTools): Promise<PreparedCompletion> {
      const [modelStage, chat] = await Promise.all([resolveModelStage(models, user, request), chatStage(user, request)]);
      const { resolved, params } = modelStage;
      let messages = modelStage.messages;

      // Memory: the caller's relevant memories join the system context, before any sources.
      const recalled = request.features?.memory ? await recallStage(user, request, signal) : undefined;
      if (recalled) messages = injectMemories(messages, recalled);
      // What the web's sources are added to once found (memories kept, no sources yet).
      const beforeSources = messages;

      const refs = await filesStage({ files }, user, request, chat?.attachmentIds ?? [], resolved.meta);
      const seen = await imagesStage({ files }, refs, messages, seesImages(resolved.meta.all, resolved.providerRef.kind));
      messages = seen.messages;
      let retrieval: PreparedCompletion['retrieval'] = { sources: [] };
      if (seen.refs.length > 0) {
        retrieval = await retriever({ user, files: seen.refs, knowledge: resolved.meta.knowledge, messages, modelId: request.model, contextTokens: contextTokensOf(resolved), signal });
      }
      // Attached notes reach the model whole, like attached files.
      const noteIds = (request.files ?? []).filter((f) => f.type === 'note').map((f) => f.id);
      if (noteIds.length > 0) {
        if (!noteSources) throw forbidden('Notes are not available', 'NOTES_DISABLED');
        retrieval = { sources: [...(await noteSources(user, noteIds)), ...retrieval.sources] };
      }
      messages = injectContext(messages, retrieval);

      const toolIds = [...new Set([...(request.tool_ids ?? []), ...resolved.meta.toolIds])];
      let tools = toolIds.length > 0 ? await toolResolver({ user, toolIds, credential, signal }) : EMPTY_TOOLS;
      // Web search: searched as the answer starts, or offered as tools to models that call them natively.
      let web: PreparedCompletion['webSearch'];
      if (request.features?.web_search) {
        if (!webSearch) throw forbidden('Web search is not available', 'WEB_SEARCH_DISABLED');
        if ((await webSearch.prepare({ user, resolved })) === 'tools') tools = mergeToolSets(tools, webSearch.tools(user));
        else web = { messages: beforeSources };
      }
      // Models calling tools natively also get `remember` and `recall` while memory is on.
      if (recalled && memory && resolved.params.extra?.function_calling === 'native') tools = mergeToolSets(tools, memory.tools(user));

      let interpreter: PreparedCompletion['interpreter'];
      if (request.features?.code_interpreter) {
        if (!codeInterpreter) throw forbidden('The code interpreter is not available', 'CODE_INTERPRETER_DISABLED');
        if (resolved.meta.capabilities?.code_interpreter === false) throw forbidden(`The model ${request.model} cannot use the code interpreter`, 'CODE_INTERPRETER_NOT_SUPPORTED');
        ({ interpreter, messages } = withInterpreter(await codeInterpreter.prepare({ user, chatId: chat?.id, fileIds: refs.filter((r) => r.type === 'file').map((r) => r.id) }), resolved, messages));
      }

      let image: PreparedCompletion['imageGeneration'];
      if (request.features?.image_generation) {
        if (!imageGeneration) throw forbidden('Image generation is not available', 'IMAGE_GENERATION_DISABLED');
        image = await imageGeneration.prepare({ user });
      }

      return {
        id: `chatcmpl-${randomBytes(12).toString('hex')}`,
        created: clock.now(),
        user,
        request,
        resolved,
        messages,
        params,
        files: refs,
        retrieval,
        tools,
        ...(clientTools && clientTools.specs.length > 0 ? { clientTools } : {}),
        chat: chat ? { id: chat.id, parentId: chat.parentId } : undefined,
        ...(web ? { webSearch: web } : {}),
        ...(interpreter ? { interpreter } : {}),
        ...(image ? { imageGeneration: image } : {}),
        ...(recalled && recalled.length > 0 ? { memories: recalled } : {}),
      };
    },

    /**
     * Stages 5–6: streams the answer through `emit` (sources first) while the turn is recorded
     * into its chat (question first, the growing answer every second, the end). Never throws for
     * provider trouble.
     */
    async run(prepared: PreparedCompletion, signal: AbortSignal, emit: Emit, running?: RunningAnswer): Promise<CompletionResult> {
      const draft = new AnswerText();
      const recorder = recordTurn(chats, prepared, draft, clock.now(), log);
      const ids = recorder.ids;
      if (ids) {
        if (running) running.messageId = ids.assistantMessageId;
        await emit({ type: 'saved', chatId: ids.chatId, messageId: ids.assistantMessageId, userMessageId: ids.userMessageId });
      }
      let answering = prepared;
      if (prepared.webSearch && webSearch) {
        let found: CompletionSource[];
        try {
          found = await webSearch.search({ user: prepared.user, messages: prepared.request.messages, modelId: prepared.request.model, signal, status: (status) => emit({ type: 'status', status }) });
        } catch (error) {
          if (!signal.aborted) throw error;
          const outcome: AnswerOutcome = { content: '', finishReason: null, interrupted: { reason: 'client', message: 'Stopped before the answer was complete' } };
          return { outcome, sources: prepared.retrieval.sources, saved: await recorder.finish(outcome) };
        }
        if (found.length > 0) {
          // Knowledge first, then the web: one numbering for both.
          const sources = [...prepared.retrieval.sources, ...found];
          const retrieval = { ...prepared.retrieval, sources };
          const messages = injectContext(prepared.webSearch.messages, retrieval);
          // The interpreter's prompt goes after the sources, as in `prepare`.
          answering = { ...prepared, retrieval, messages: prepared.interpreter ? withInterpreter(prepared.interpreter, prepared.resolved, messages).messages : messages };
        }
      }
      if (prepared.memories?.length) await emit({ type: 'memories', memories: prepared.memories });
      const sources = answering.retrieval.sources;
      if (sources.length > 0) await emit({ type: 'sources', sources });
      const unmatched = unmatchedStatus(prepared.retrieval);
      if (unmatched) await emit({ type: 'status', status: unmatched });
      const image = await makeImageFirst(answering, signal, emit);
      let outcome = image.stopped ?? (await answerStage(image.prepared, signal, emit, draft));
      if (image.step) outcome.toolSteps = [image.step, ...(outcome.toolSteps ?? [])];
      if (outcome.interrupted) log.info({ reason: outcome.interrupted.reason, detail: outcome.interrupted.message, model: prepared.request.model }, 'completion interrupted');
      // Stopped by the person: what their screen showed is what is kept (words still on their way are dropped).
      const shown = running?.shown;
      if (shown !== undefined && outcome.content.startsWith(shown)) outcome = { ...outcome, content: shown, finishReason: outcome.finishReason ?? 'stop', interrupted: { reason: 'client', message: STOPPED_BY_PERSON } };
      const saved = await recorder.finish(outcome, sources);
      return { outcome, sources, saved };
    },

    /** Registers an answer the caller named with `stream_id`, so `stop` can find it. */
    beginAnswer(user: CompletionCaller, streamId: string, chatId: string): RunningAnswer {
      return running.begin(user.id, streamId, chatId);
    },

    /**
     * Stops an answer where the person's screen was and keeps that text: a running answer here
     * is aborted and saved with it; a saved one (finished here, or streamed by another instance)
     * is cut back to it; a stop that came before its answer stops it as it begins. Answers the
     * saved message, or null when the answer is not saved (yet).
     */
    async stop(user: CompletionCaller, body: StopAnswerRequest): Promise<StopAnswerResponse> {
      await chats.requireOwn(user, body.chat_id);
      const run = (body.stream_id ? running.find(user.id, body.stream_id) : undefined) ?? (body.message_id ? running.findByMessage(user.id, body.message_id) : undefined);
      if (run && run.chatId !== body.chat_id) return { message: null };
      if (run) {
        run.stop(body.content);
        await run.ended;
      } else if (body.stream_id && !body.message_id) {
        running.stopBeforeBegin(user.id, body.stream_id, body.chat_id, body.content);
        return { message: null };
      }
      const messageId = run?.messageId ?? body.message_id;
      if (!messageId) return { message: null };
      return { message: await chats.keepShownAnswer(user, body.chat_id, messageId, body.content) };
    },

    /**
     * Stage 7: title, tags and follow-ups in the background, started only when no request waits
     * for its first token; failures are logged, never raised.
     */
    afterAnswer(prepared: PreparedCompletion, result: CompletionResult): void {
      const saved = result.saved;
      if (!saved || result.outcome.interrupted) return;
      const job = gate.background(() => (stopBackground.signal.aborted ? Promise.resolve() : afterAnswerStage(deps, prepared, result.outcome, saved, stopBackground.signal))).catch((error: unknown) =>
        log.warn({ err: error }, 'background tasks failed'),
      );
      background.add(job);
      void job.finally(() => background.delete(job));
    },

    /** Resolves when no background task is running (tests, shutdown). */
    async idle(): Promise<void> {
      while (background.size > 0) await Promise.all([...background]);
    },

    /** Stops background tasks and waits for them, before the database closes. */
    async shutdown(): Promise<void> {
      stopBackground.abort();
      await this.idle();
    },
  };
}
export type CompletionsService = ReturnType<typeof createCompletionsService>;
