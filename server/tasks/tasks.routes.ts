import {
  AutocompleteTaskRequest,
  AutocompleteTaskResponse,
  FollowUpTaskRequest,
  FollowUpTaskResponse,
  QueriesTaskRequest,
  QueriesTaskResponse,
  TagsTaskRequest,
  TagsTaskResponse,
  TaskConfig,
  TitleTaskRequest,
  TitleTaskResponse,
} from '../contracts/tasks';
import { route, type Routes } from '../platform/http/route';
import type { TasksService } from './tasks.service';

/** Section 4.10 task pipeline, plus tags, autocomplete and queries. Mounted at `/api/v1/tasks`. */
export function tasksRoutes(tasks: TasksService): Routes {
  return [
    route({ method: 'get', path: '/config', guard: 'admin', summary: 'Background task settings (titles, tags, follow-ups…)', response: TaskConfig }, () => tasks.getConfig()),
    route({ method: 'post', path: '/config/update', guard: 'admin', body: TaskConfig, invalid: 400, summary: 'Replace the background task settings', response: TaskConfig }, ({ body }) => tasks.setConfig(body)),
    route({ method: 'post', path: '/title', guard: 'user', body: TitleTaskRequest, summary: 'Generate a chat title', response: TitleTaskResponse }, async ({ user, body }) => ({
      title: await tasks.title(user, body.messages, { model: body.model }),
    })),
    route({ method: 'post', path: '/follow-up', guard: 'user', body: FollowUpTaskRequest, summary: 'Suggest follow-up questions', response: FollowUpTaskResponse }, ({ user, body }) => {
      const messages = body.response === undefined ? body.messages : [...body.messages, { role: 'assistant', content: body.response }];
      return tasks.followUps(user, messages, { model: body.model });
    }),
    route({ method: 'post', path: '/tags', guard: 'user', body: TagsTaskRequest, summary: 'Suggest chat tags', response: TagsTaskResponse }, async ({ user, body }) => ({
      tags: await tasks.tags(user, body.messages, { model: body.model }),
    })),
    route({ method: 'post', path: '/autocomplete', guard: 'user', body: AutocompleteTaskRequest, summary: 'Complete the text being typed', response: AutocompleteTaskResponse }, async ({ user, body }) => ({
      text: await tasks.autocomplete(user, body, { model: body.model }),
    })),
    route({ method: 'post', path: '/queries', guard: 'user', body: QueriesTaskRequest, summary: 'Generate search queries', response: QueriesTaskResponse }, async ({ user, body }) => ({
      queries: await tasks.queries(user, body.messages, body.type, { model: body.model }),
    })),
  ];
}
