import type { WebSearchPlug } from '../../completions';
import { forbidden } from '../../platform/http/errors';
import type { Logger } from '../../platform/log';
import type { TasksService } from '../../tasks';
import type { WebService } from '../web.service';
import type { PassageRanker } from './ranker';
import { webSearchStage } from './web-search-stage';
import { isWebTool, runWebTool, WEB_TOOL_SPECS } from './web-tools';

/**
 * Web search as the completion pipeline uses it (`features: {web_search: true}`): allowed when an
 * admin turned it on, the caller has `features.web_search` and the model does not say it cannot
 * (`meta.capabilities.web_search: false`); models set to call tools natively
 * (`params.function_calling: 'native'`) get `web_search` and `fetch_url` tools, others get the
 * search done before they answer.
 */
export function createWebSearchPlug(deps: { web: WebService; tasks: Pick<TasksService, 'queries'>; rank: PassageRanker; log: Logger }): WebSearchPlug {
  const { web } = deps;
  return {
    async prepare({ user, resolved }) {
      await web.requireAccess(user);
      if (resolved.meta.capabilities?.web_search === false) throw forbidden(`The model ${resolved.model.id} cannot search the web`, 'WEB_SEARCH_NOT_A_CAPABILITY');
      return resolved.params.extra?.function_calling === 'native' ? 'tools' : 'search';
    },
    search(input) {
      const messages = input.messages.filter((m) => m.role === 'user' || m.role === 'assistant');
      return webSearchStage(deps, { user: input.user, messages, modelId: input.modelId, signal: input.signal, status: input.status });
    },
    tools() {
      return {
        specs: WEB_TOOL_SPECS,
        execute: (call, signal) => {
          if (!isWebTool(call.function.name)) throw new Error(`No tool named ${call.function.name} is available`);
          return runWebTool({ web, rank: deps.rank }, call, signal);
        },
      };
    },
  };
}
