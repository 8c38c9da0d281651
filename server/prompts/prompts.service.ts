import type { AccessControl } from '../contracts/access';
import type { Role } from '../contracts/auth';
import type { Prompt, PromptForm } from '../contracts/prompts';
import type { Clock } from '../platform/clock';
import { readJson } from '../platform/db/json';
import { onUniqueViolation } from '../platform/db/translate-error';
import { badRequest, forbidden, notFound } from '../platform/http/errors';
import { canAccess, storedAccess, type PermissionsService, type Principal } from '../permissions';
import type { PromptRow, PromptsRepo } from './prompts.repo';

/** The caller as prompt rules see them. */
export interface PromptCaller {
  id: string;
  role: Role;
}

const promptNotFound = () => notFound('Prompt not found', 'PROMPT_NOT_FOUND');
/** A clash with another prompt of the same owner: someone else's prompts are never named. */
const commandTaken = (command: string) => badRequest(`You already have a prompt '${command}'`, 'PROMPT_COMMAND_TAKEN');
/** The refusal without the `workspace.prompts` permission. */
export const promptsForbidden = () => forbidden('You are not allowed to create prompts', 'PROMPTS_FORBIDDEN');

function accessOf(row: PromptRow): AccessControl {
  return row.access_control === null ? null : readJson<AccessControl>(row.access_control, {});
}

/**
 * The prompts library: `/command` prompts with access control like models (null = everyone reads;
 * owner, admins and `write` principals change). Creating needs `workspace.prompts`. Commands are
 * unique per owner: `/command` means the caller's own prompt, else the oldest one they may read.
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

  const mayRead = (who: Principal, row: PromptRow) => canAccess(who, { user_id: row.user_id, access_control: accessOf(row) }, 'read');

  /** Which of several owners' prompts with one command the caller means: their own, else the oldest they may read. */
  const resolve = (who: Principal, rows: readonly PromptRow[]): PromptRow | undefined => rows.find((r) => r.user_id === who.id) ?? rows.find((r) => mayRead(who, r));

  /** A prompt the caller may read; one they may not read answers like a missing one. */
  async function readable(caller: PromptCaller, command: string): Promise<{ row: PromptRow; who: Principal }> {
    const who = await permissions.principal(caller);
    const row = resolve(who, await repo.withCommand(command));
    if (!row) throw promptNotFound();
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
    /** Prompts the caller may read, by command: for each command the one `/command` means to them. */
    async list(caller: PromptCaller): Promise<Prompt[]> {
      const who = await permissions.principal(caller);
      const byCommand = new Map<string, PromptRow[]>();
      for (const row of await repo.all()) byCommand.set(row.command, [...(byCommand.get(row.command) ?? []), row]);
      return [...byCommand.values()].flatMap((rows) => {
        const row = resolve(who, rows);
        return row ? [present(row, who)] : [];
      });
    },

    async create(caller: PromptCaller, form: PromptForm): Promise<Prompt> {
      await mayCreate(caller);
      if (await repo.findOwn(caller.id, form.command)) throw commandTaken(form.command);
      const row: PromptRow = { command: form.command, user_id: caller.id, title: form.title, content: form.content, access_control: await accessToStore(caller, form.access_control), timestamp: clock.now() };
      await onUniqueViolation(() => repo.insert(row), () => commandTaken(form.command));
      return present(row, await permissions.principal(caller));
    },

    async get(caller: PromptCaller, command: string): Promise<Prompt> {
      const { row, who } = await readable(caller, command);
      return present(row, who);
    },

    /** Changes a prompt (its command too, when free). Access control changes stay with the owner and admins. */
    async update(caller: PromptCaller, command: string, form: PromptForm): Promise<Prompt> {
      const { row, who } = await writable(caller, command);
      // Only the owner's own commands can clash (an admin or writer renaming it is told the same).
      const clash = () => badRequest(`Its owner already has a prompt '${form.command}'`, 'PROMPT_COMMAND_TAKEN');
      if (form.command !== command && (await repo.findOwn(row.user_id, form.command))) throw row.user_id === caller.id ? commandTaken(form.command) : clash();
      const ownerOrAdmin = caller.role === 'admin' || caller.id === row.user_id;
      const access = form.access_control !== undefined && ownerOrAdmin ? await accessToStore(caller, form.access_control) : row.access_control;
      const next: PromptRow = { ...row, command: form.command, title: form.title, content: form.content, access_control: access, timestamp: clock.now() };
      await onUniqueViolation(() => repo.replace(row.user_id, command, next), () => (row.user_id === caller.id ? commandTaken(form.command) : clash()));
      return present(next, who);
    },

    async delete(caller: PromptCaller, command: string): Promise<void> {
      const { row } = await writable(caller, command);
      await repo.delete(row.user_id, command);
    },
  };
}
export type PromptsService = ReturnType<typeof createPromptsService>;
