import type { ConfigService } from '../config';
import type { TaskConfig } from '../contracts/tasks';
import { badRequest } from '../platform/http/errors';
import {
  DEFAULT_AUTOCOMPLETE_PROMPT,
  DEFAULT_FOLLOW_UP_PROMPT,
  DEFAULT_IMAGE_PROMPT,
  DEFAULT_MEMORY_SUGGESTION_PROMPT,
  DEFAULT_NOTE_IMPROVE_PROMPT,
  DEFAULT_NOTE_SUMMARY_PROMPT,
  DEFAULT_QUERY_PROMPT,
  DEFAULT_TAGS_PROMPT,
  DEFAULT_TITLE_PROMPT,
} from './default-prompts';
import { fallbackTitle, parseCompletion, parseFollowUps, parseImagePrompt, parseMemories, parseQueries, parseTags, parseTitle, unfenced } from './task-output';
import type { ChatModelRef, TaskCaller, TaskRunner } from './task-runner';
import { TaskConfigSection } from './tasks-config';
import { contentText, renderTemplate, type TemplateMessage } from './template';

/** Where a task runs: the chat model it belongs to, an explicit model, a signal to stop it. */
export interface TaskOptions {
  chat?: ChatModelRef;
  model?: string;
  signal?: AbortSignal;
}

/**
 * Background tasks around chats: titles, tags, follow-ups, autocomplete and search query
 * generation, each a prompt template run on the task model with its JSON answer parsed.
 */
export function createTasksService(deps: { config: ConfigService; runner: TaskRunner; now?: () => Date }) {
  const { config, runner } = deps;
  const now = deps.now ?? (() => new Date());
  const cfg = () => config.get(TaskConfigSection);
  const template = (custom: string, fallback: string) => (custom.trim() ? custom : fallback);

  return {
    async getConfig(): Promise<TaskConfig> {
      return cfg();
    },

    /** Replaces the whole config (validated by the route). */
    async setConfig(value: TaskConfig): Promise<TaskConfig> {
      return config.set(TaskConfigSection, value);
    },

    /** A short title for the conversation; without title generation, the start of the first user message. */
    async title(caller: TaskCaller, messages: readonly TemplateMessage[], options: TaskOptions = {}): Promise<string> {
      const c = await cfg();
      if (!c.ENABLE_TITLE_GENERATION) return fallbackTitle(messages);
      const prompt = renderTemplate(template(c.TITLE_GENERATION_PROMPT_TEMPLATE, DEFAULT_TITLE_PROMPT), { messages, now: now() });
      return parseTitle(await runner.run(caller, prompt, { ...options, maxTokens: 1000 })) ?? fallbackTitle(messages);
    },

    /** Subject tags for the conversation ([] when disabled). */
    async tags(caller: TaskCaller, messages: readonly TemplateMessage[], options: TaskOptions = {}): Promise<string[]> {
      const c = await cfg();
      if (!c.ENABLE_TAGS_GENERATION) return [];
      const prompt = renderTemplate(template(c.TAGS_GENERATION_PROMPT_TEMPLATE, DEFAULT_TAGS_PROMPT), { messages, now: now() });
      return parseTags(await runner.run(caller, prompt, options));
    },

    /** Questions the user may ask next ([] when disabled). */
    async followUps(caller: TaskCaller, messages: readonly TemplateMessage[], options: TaskOptions = {}): Promise<string[]> {
      const c = await cfg();
      if (!c.ENABLE_FOLLOW_UP_GENERATION) return [];
      const prompt = renderTemplate(template(c.FOLLOW_UP_GENERATION_PROMPT_TEMPLATE, DEFAULT_FOLLOW_UP_PROMPT), { messages, now: now() });
      return parseFollowUps(await runner.run(caller, prompt, options));
    },

    /** The likely continuation of what the user is typing. 400 when disabled or the input is too long. */
    async autocomplete(caller: TaskCaller, input: { prompt: string; type?: string; messages?: readonly TemplateMessage[] }, options: TaskOptions = {}): Promise<string> {
      const c = await cfg();
      if (!c.ENABLE_AUTOCOMPLETE_GENERATION) throw badRequest('Autocomplete is turned off', 'AUTOCOMPLETE_DISABLED');
      const max = c.AUTOCOMPLETE_GENERATION_INPUT_MAX_LENGTH;
      if (max >= 0 && input.prompt.length > max) {
        throw badRequest(`Field 'prompt': autocomplete takes at most ${max} characters (got ${input.prompt.length})`, 'AUTOCOMPLETE_INPUT_TOO_LONG');
      }
      const prompt = renderTemplate(DEFAULT_AUTOCOMPLETE_PROMPT, { messages: input.messages ?? [], prompt: input.prompt, type: input.type ?? 'user message', now: now() });
      return parseCompletion(await runner.run(caller, prompt, { ...options, maxTokens: 200 }));
    },

    /** A note's text summarized or with its writing improved (Markdown), on the task model. */
    async noteAssist(caller: TaskCaller, action: 'summarize' | 'improve', content: string, options: TaskOptions = {}): Promise<string> {
      const prompt = renderTemplate(action === 'summarize' ? DEFAULT_NOTE_SUMMARY_PROMPT : DEFAULT_NOTE_IMPROVE_PROMPT, { messages: [], prompt: content, now: now() });
      const answer = unfenced(await runner.run(caller, prompt, options));
      if (!answer) throw badRequest('The task model gave no text', 'TASK_EMPTY_ANSWER');
      return answer;
    },

    /** Facts about the user worth remembering from a conversation (at most 3), leaving out those in `known`. */
    async memorySuggestions(caller: TaskCaller, messages: readonly TemplateMessage[], known: readonly string[], options: TaskOptions = {}): Promise<string[]> {
      const remembered = known.length > 0 ? known.map((m) => `- ${m}`).join('\n') : '(nothing yet)';
      const prompt = renderTemplate(DEFAULT_MEMORY_SUGGESTION_PROMPT, { messages, prompt: remembered, now: now() });
      const folded = new Set(known.map((m) => m.trim().toLowerCase()));
      return parseMemories(await runner.run(caller, prompt, options)).filter((m) => !folded.has(m.toLowerCase()));
    },

    /**
     * A prompt for an image engine written from the conversation by the task model; the last user
     * message when the model gives none or fails.
     */
    async imagePrompt(caller: TaskCaller, messages: readonly TemplateMessage[], options: TaskOptions = {}): Promise<string> {
      const lastUser = [...messages].reverse().find((m) => m.role === 'user');
      const fallback = lastUser ? contentText(lastUser.content) : '';
      const prompt = renderTemplate(DEFAULT_IMAGE_PROMPT, { messages, now: now() });
      try {
        return parseImagePrompt(await runner.run(caller, prompt, { ...options, maxTokens: 400 })) ?? fallback;
      } catch (error) {
        if (options.signal?.aborted) throw error;
        return fallback; // a failing task never stops the image
      }
    },

    /**
     * Search queries for the conversation (`retrieval` for knowledge, `web_search`). With
     * generation off, or when the model gives none or fails, the last user message is the query.
     * The retrieval engine calls this before searching.
     */
    async queries(caller: TaskCaller, messages: readonly TemplateMessage[], type: 'retrieval' | 'web_search', options: TaskOptions = {}): Promise<string[]> {
      const c = await cfg();
      const lastUser = [...messages].reverse().find((m) => m.role === 'user');
      const fallback = lastUser ? [contentText(lastUser.content)].filter(Boolean) : [];
      const enabled = type === 'retrieval' ? c.ENABLE_RETRIEVAL_QUERY_GENERATION : c.ENABLE_SEARCH_QUERY_GENERATION;
      if (!enabled) return fallback;
      const prompt = renderTemplate(template(c.QUERY_GENERATION_PROMPT_TEMPLATE, DEFAULT_QUERY_PROMPT), {
        messages,
        type: type === 'retrieval' ? 'knowledge search' : 'web search',
        now: now(),
      });
      try {
        const queries = parseQueries(await runner.run(caller, prompt, options));
        return queries && queries.length > 0 ? queries : fallback;
      } catch (error) {
        if (options.signal?.aborted) throw error;
        return fallback; // a failing task never stops the search
      }
    },
  };
}
export type TasksService = ReturnType<typeof createTasksService>;

