import type { PromptSuggestion } from '../../api/chat-extras';
import english from '../../locales/en/chat.json';
import type { t as translate } from '../../lib/i18n';

/** The built-in suggestions of a fresh install (server/config/suggestions.ts), by number. */
const BUILT_IN = [1, 2, 3, 4] as const;

/**
 * A suggested prompt in the UI's language: the service's built-in ones (unchanged by an admin)
 * show the catalog's words, and clicking one sends the translated prompt; suggestions an admin
 * wrote show as written.
 */
export function localizedSuggestion(suggestion: PromptSuggestion, t: typeof translate): PromptSuggestion {
  for (const n of BUILT_IN) {
    const title = `chat.defaultSuggestion${n}.title` as const;
    const sub = `chat.defaultSuggestion${n}.sub` as const;
    const prompt = `chat.defaultSuggestion${n}.prompt` as const;
    if (suggestion.title[0] === english[title] && (suggestion.title[1] ?? '') === english[sub] && suggestion.content === english[prompt]) {
      return { title: [t(title), t(sub)], content: t(prompt) };
    }
  }
  return suggestion;
}
