import { Router, type RequestHandler } from 'express';
import { authOf, requireUser } from '../session';
import { PromptCommand, PromptForm } from '../contracts/prompts';
import { badRequest } from '../platform/http/errors';
import { validateBody } from '../platform/http/validate';
import type { PromptsService } from './prompts.service';

/** The prompts library on Open WebUI's paths. Mounted at `/api/v1/prompts`. */
export function promptsRoutes(prompts: PromptsService): Router {
  const router = Router();
  /** `{command}` in a path is the name without its slash. */
  const command = (req: { params: Record<string, unknown> }): string => {
    const parsed = PromptCommand.safeParse(String(req.params.command));
    if (!parsed.success) throw badRequest('Not a prompt command', 'BAD_PROMPT_COMMAND');
    return parsed.data;
  };
  const readablePrompt: RequestHandler = async (req, _res, next) => {
    await prompts.get(authOf(req).user, command(req));
    next();
  };
  const mayCreate: RequestHandler = async (req, _res, next) => {
    await prompts.requireCreate(authOf(req).user);
    next();
  };

  router.get('/', requireUser, async (req, res) => {
    res.json(await prompts.list(authOf(req).user));
  });
  router.post('/create', requireUser, mayCreate, validateBody(PromptForm), async (req, res) => {
    res.json(await prompts.create(authOf(req).user, req.body as PromptForm));
  });
  router.get('/command/:command', requireUser, async (req, res) => {
    res.json(await prompts.get(authOf(req).user, command(req)));
  });
  router.post('/command/:command/update', requireUser, readablePrompt, validateBody(PromptForm), async (req, res) => {
    res.json(await prompts.update(authOf(req).user, command(req), req.body as PromptForm));
  });
  router.delete('/command/:command/delete', requireUser, async (req, res) => {
    await prompts.delete(authOf(req).user, command(req));
    res.json(true);
  });
  return router;
}
