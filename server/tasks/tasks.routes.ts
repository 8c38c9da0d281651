import { Router } from 'express';
import { authOf, requireAdmin, requireUser } from '../session';
import {
  AutocompleteTaskRequest,
  FollowUpTaskRequest,
  QueriesTaskRequest,
  TagsTaskRequest,
  TaskConfig,
  TitleTaskRequest,
} from '../contracts/tasks';
import { validateBody } from '../platform/http/validate';
import type { TasksService } from './tasks.service';

/** Section 4.10 task pipeline, plus tags, autocomplete and queries. Mounted at `/api/v1/tasks`. */
export function tasksRoutes(tasks: TasksService): Router {
  const router = Router();

  router.get('/config', requireAdmin, async (_req, res) => {
    res.json(await tasks.getConfig());
  });

  router.post('/config/update', requireAdmin, validateBody(TaskConfig, { status: 400 }), async (req, res) => {
    res.json(await tasks.setConfig(req.body as TaskConfig));
  });

  router.post('/title', requireUser, validateBody(TitleTaskRequest), async (req, res) => {
    const body = req.body as TitleTaskRequest;
    res.json({ title: await tasks.title(authOf(req).user, body.messages, { model: body.model }) });
  });

  router.post('/follow-up', requireUser, validateBody(FollowUpTaskRequest), async (req, res) => {
    const body = req.body as FollowUpTaskRequest;
    const messages = body.response === undefined ? body.messages : [...body.messages, { role: 'assistant', content: body.response }];
    res.json(await tasks.followUps(authOf(req).user, messages, { model: body.model }));
  });

  router.post('/tags', requireUser, validateBody(TagsTaskRequest), async (req, res) => {
    const body = req.body as TagsTaskRequest;
    res.json({ tags: await tasks.tags(authOf(req).user, body.messages, { model: body.model }) });
  });

  router.post('/autocomplete', requireUser, validateBody(AutocompleteTaskRequest), async (req, res) => {
    const body = req.body as AutocompleteTaskRequest;
    res.json({ text: await tasks.autocomplete(authOf(req).user, body, { model: body.model }) });
  });

  router.post('/queries', requireUser, validateBody(QueriesTaskRequest), async (req, res) => {
    const body = req.body as QueriesTaskRequest;
    res.json({ queries: await tasks.queries(authOf(req).user, body.messages, body.type, { model: body.model }) });
  });

  return router;
}
