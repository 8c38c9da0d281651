import type { AccessControl } from '../contracts/access';
import type { Role } from '../contracts/auth';
import type { Prompt, PromptForm } from '../contracts/prompts';
import type { Clock } from '../platform/clock';
import { readJson } from '../platform/db/json';
import { badRequest, forbidden, notFound } from '../platform/http/errors';
import { canAccess, storedAccess, type PermissionsService, type Principal } from '../permissions';
import type { PromptRow, PromptsRepo } from './prompts.repo';

/** The caller as prompt rules see them. */
export interface PromptCaller {
  id: string;
  role: Role;
}

const promptNotFound = () => notFound('Prompt not found', 'PROMPT_NOT_FOUND');
/** The refusal without the `workspace.prompts` permission. */
export const promptsForbidden = () => forbidden('You are not allowed to create prompts', 'PROMPTS_FORBIDDEN');

function accessOf(row: PromptRow): AccessControl {
  return row.access_control === null ? null : readJson<AccessControl>(row.access_control, {});
}

/**
 * The prompts library: `/command` prompts with access control like models (null = everyone reads;
 * owner, admins and `write` principals change). Creating needs `workspace.prompts`.
 */
export function createPromptsService(deps: { repo: PromptsRepo; permissions: PermissionsService; clock: Clock }) {
  const { repo, permissions, clock } = deps;

  const present = (row: PromptRow, who: Principal): Prompt => ({
    command: row.command,
    user_id: row.user_id,
    title: row.title,
    content: row.content,
    timestamp: row.timestamp,
    access_control: accessOf(row),
    write_access: canAccess(who, { user_id: row.user_id, access_control: accessOf(row) }, 'write'),
  });

  async function mayCreate(caller: PromptCaller): Promise<void> {
    if (!(await permissions.allows(caller, 'workspace.prompts'))) throw promptsForbidden();
  }

  /** A prompt the caller may read; one they may not read answers like a missing one. */
  async function readable(caller: PromptCaller, command: string): Promise<{ row: PromptRow; who: Principal }> {
    const who = await permissions.principal(caller);
    const row = await repo.find(command);
    if (!row || !canAccess(who, { user_id: row.user_id, access_control: accessOf(row) }, 'read')) throw promptNotFound();
    return { row, who };
  }

  async function writable(caller: PromptCaller, command: string): Promise<{ row: PromptRow; who: Principal }> {
    const found = await readable(caller, command);
    if (!canAccess(found.who, { user_id: found.row.user_id, access_control: accessOf(found.row) }, 'write')) {
      throw forbidden('You may not change this prompt', 'PROMPT_FORBIDDEN');
    }
    return found;
  }

  /** Without `sharing`-style rights a non-admin's public prompt stays private, like models. */
  const accessToStore = (caller: PromptCaller, value: AccessControl | undefined) => storedAccess((key) => permissions.allows(caller, key), value, 'sharing.public_models');

  return {
    /** Prompts the caller may read, by command. */
    async list(caller: PromptCaller): Promise<Prompt[]> {
      const who = await permissions.principal(caller);
      return (await repo.all()).filter((r) => canAccess(who, { user_id: r.user_id, access_control: accessOf(r) }, 'read')).map((r) => present(r, who));
    },

    async create(caller: PromptCaller, form: PromptForm): Promise<Prompt> {
      await mayCreate(caller);
      if (await repo.find(form.command)) throw badRequest(`The command '${form.command}' is taken`, 'PROMPT_COMMAND_TAKEN');
      const row: PromptRow = { command: form.command, user_id: caller.id, title: form.title, content: form.content, access_control: await accessToStore(caller, form.access_control), timestamp: clock.now() };
      await repo.insert(row);
      return present(row, await permissions.principal(caller));
    },

    async get(caller: PromptCaller, command: string): Promise<Prompt> {
      const { row, who } = await readable(caller, command);
      return present(row, who);
    },

    /** Changes a prompt (its command too, when free). Access control changes stay with the owner and admins. */
    async update(caller: PromptCaller, command: string, form: PromptForm): Promise<Prompt> {
      const { row, who } = await writable(caller, command);
      if (form.command !== command && (await repo.find(form.command))) throw badRequest(`The command '${form.command}' is taken`, 'PROMPT_COMMAND_TAKEN');
      const ownerOrAdmin = caller.role === 'admin' || caller.id === row.user_id;
      const access = form.access_control !== undefined && ownerOrAdmin ? await accessToStore(caller, form.access_control) : row.access_control;
      const next: PromptRow = { ...row, command: form.command, title: form.title, content: form.content, access_control: access, timestamp: clock.now() };
      await repo.replace(command, next);
      return present(next, who);
    },

    async delete(caller: PromptCaller, command: string): Promise<void> {
      await writable(caller, command);
      await repo.delete(command);
    },
  };
}
export type PromptsService = ReturnType<typeof createPromptsService>;
