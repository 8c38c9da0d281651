import { z } from 'zod';
import { Prompt, PromptCommand, PromptForm } from '../contracts/prompts';
import { badRequest } from '../platform/http/errors';
import { route, type Routes } from '../platform/http/route';
import { promptsForbidden, type PromptsService } from './prompts.service';

/** `{command}` in a path is the name without its slash. */
function commandOf(raw: string): string {
  const parsed = PromptCommand.safeParse(raw);
  if (!parsed.success) throw badRequest('Not a prompt command', 'BAD_PROMPT_COMMAND');
  return parsed.data;
}

/** The prompts library on Open WebUI's paths. Mounted at `/api/v1/prompts`. */
export function promptsRoutes(prompts: PromptsService): Routes {
  return [
    route({ method: 'get', path: '/', guard: 'user', summary: 'Saved prompts the caller may use', response: z.array(Prompt) }, ({ user }) => prompts.list(user)),
    route(
      { method: 'post', path: '/create', guard: 'user', permission: 'workspace.prompts', refused: promptsForbidden, body: PromptForm, summary: 'Save a prompt', response: Prompt },
      ({ user, body }) => prompts.create(user, body),
    ),
    route({ method: 'get', path: '/command/:command', guard: 'user', summary: 'A saved prompt', response: Prompt }, ({ user, params }) => prompts.get(user, commandOf(params.command))),
    route(
      {
        method: 'post',
        path: '/command/:command/update',
        guard: 'user',
        // A prompt the caller cannot read is 404 before its body is validated.
        authorize: async ({ user, params }) => {
          await prompts.get(user, commandOf(params.command));
        },
        body: PromptForm,
        summary: 'Update a saved prompt',
        response: Prompt,
      },
      ({ user, params, body }) => prompts.update(user, commandOf(params.command), body),
    ),
    route({ method: 'delete', path: '/command/:command/delete', guard: 'user', summary: 'Delete a saved prompt', response: z.boolean() }, async ({ user, params }) => {
      await prompts.delete(user, commandOf(params.command));
      return true;
    }),
  ];
}
