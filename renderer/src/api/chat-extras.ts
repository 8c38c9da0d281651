import type { ConnectionStatus } from '../../../server/contracts/connection-status';
import type { PromptSuggestion, PromptSuggestions } from '../../../server/contracts/suggestions';
import { http } from './http';

export type { ConnectionStatus, PromptSuggestion };

/** What the chat reads besides chats: suggested prompts and the connections' reachability. */
export const chatExtrasApi = {
  suggestions: () => http.get<PromptSuggestions>('/api/v1/configs/suggestions'),
  setSuggestions: (suggestions: PromptSuggestion[]) => http.post<PromptSuggestions>('/api/v1/configs/suggestions', { suggestions }),
  connectionStatus: () => http.get<ConnectionStatus>('/api/v1/connections/status'),
};
