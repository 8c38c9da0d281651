import { PromptSuggestions } from '../contracts/suggestions';
import { route, type Routes } from '../platform/http/route';
import type { ConfigService } from './config.service';
import { SuggestionsSection } from './suggestions';

/** `/api/v1/configs/suggestions`: any user reads the suggested prompts, admins replace the list. */
export function suggestionsRoutes(config: ConfigService): Routes {
  return [
    route({ method: 'get', path: '/', guard: 'user', summary: 'Suggested prompts of the empty chat', response: PromptSuggestions }, () => config.get(SuggestionsSection)),
    route({ method: 'post', path: '/', guard: 'admin', body: PromptSuggestions, summary: 'Replace the suggested prompts', response: PromptSuggestions }, ({ body }) => config.set(SuggestionsSection, body)),
  ];
}
