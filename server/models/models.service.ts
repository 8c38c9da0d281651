import type { AccessControl } from '../contracts/access';
import type { Role } from '../contracts/auth';
import type { CreateModelRequest, ImportedModel, Model, ModelListEntry, UpdateModelRequest } from '../contracts/models';
import { writeJson } from '../platform/db/json';
import { onUniqueViolation } from '../platform/db/translate-error';
import type { Clock } from '../platform/clock';
import { unprocessable } from '../platform/http/errors';
import type { Logger } from '../platform/log';
import { canAccess, type PermissionsService, type Principal } from '../permissions';
import {
  baseModelNotAllowed,
  baseOverrideAdminOnly,
  modelIdTaken,
  modelNotFound,
  modelsPermissionRequired,
  modelToggleFailed,
  modelUpdateForbidden,
  modelWriteUnauthorized,
} from './models.errors';
import { accessControlOf, presentListEntry, presentModel } from './models.present';
import type { ModelRow, ModelsRepo } from './models.repo';

/** The caller, as the model rules need them. */
export interface Caller {
  id: string;
  role: Role;
}

export interface ModelsServiceDeps {
  repo: ModelsRepo;
  permissions: PermissionsService;
  clock: Clock;
  log: Logger;
  /** True when a configured provider offers a base model with this id. */
  isBaseModelId: (id: string) => Promise<boolean>;
  /** Whether a person may use a base model (model resolution's rule). */
  mayUseBase: (caller: Caller, baseId: string) => Promise<boolean>;
}

/** The resource view of a row for the one access check. */
export const resourceOf = (row: ModelRow) => ({ user_id: row.user_id, access_control: accessControlOf(row) });

/**
 * The model registry (section 4.4): custom models and base-model descriptions, their owners and
 * access lists. Admins and owners may do anything; `access_control.write` grants update, toggle
 * and delete; null access is public read.
 */
export function createModelsService(deps: ModelsServiceDeps) {
  const { repo, permissions, clock, log } = deps;

  /**
   * Callers without `sharing.public_models` cannot make a model public: a null list becomes `{}`
   * (private), unless the model already was public.
   */
  async function allowedAccess(caller: Caller, wanted: AccessControl, current?: AccessControl): Promise<AccessControl> {
    if (wanted !== null || caller.role === 'admin' || current === null) return wanted;
    const effective = await permissions.effective(caller);
    return effective.sharing.public_models ? null : {};
  }

  /** The row, if the caller may read it; otherwise the interface's "not found". */
  async function readable(caller: Caller, id: string): Promise<{ row: ModelRow; who: Principal }> {
    const row = await repo.findById(id);
    const who = await permissions.principal(caller);
    if (!row || !canAccess(who, resourceOf(row), 'read')) throw modelNotFound();
    return { row, who };
  }

  /**
   * A custom model's new base model: the person setting it and the model's owner must both be
   * allowed it, and an admin's model (which lends its base model to its readers) takes a new base
   * model only from an admin.
   */
  async function checkNewBase(caller: Caller, id: string, baseId: string): Promise<void> {
    const owner = await repo.oneWithOwner(id);
    if (!owner?.owner_role) throw modelNotFound();
    if (owner.owner_role === 'admin' && caller.role !== 'admin') throw modelUpdateForbidden();
    if (!(await deps.mayUseBase(caller, baseId))) throw baseModelNotAllowed(400, baseId, 'you');
    if (!(await deps.mayUseBase({ id: owner.user_id, role: owner.owner_role as Role }, baseId))) throw baseModelNotAllowed(400, baseId, 'owner');
  }

  return {
    /** Admins see every model; others the ones they own or may read. `id` filters to one. */
    async list(caller: Caller, id?: string): Promise<ModelListEntry[]> {
      const who = await permissions.principal(caller);
      const rows = await repo.allWithOwners(id);
      return rows.filter((row) => canAccess(who, resourceOf(row), 'read')).map(presentListEntry);
    },

    async get(caller: Caller, id: string): Promise<Model> {
      return presentModel((await readable(caller, id)).row);
    },

    /** Whether the caller may create models: admin, or the workspace.models permission. */
    async canCreate(caller: Caller): Promise<boolean> {
      return permissions.allows(caller, 'workspace.models');
    },

    async create(caller: Caller, body: CreateModelRequest): Promise<Model> {
      if (!(await this.canCreate(caller))) throw modelsPermissionRequired();
      if (caller.role !== 'admin') {
        if (body.base_model_id === null) throw baseOverrideAdminOnly();
        if (await deps.isBaseModelId(body.id)) throw baseOverrideAdminOnly();
      }
      if (body.base_model_id === body.id) throw unprocessable("Field 'base_model_id': must differ from the model's own id");
      if (body.base_model_id !== null && !(await deps.mayUseBase(caller, body.base_model_id))) throw baseModelNotAllowed(403, body.base_model_id, 'you');
      if (await repo.findById(body.id)) throw modelIdTaken();
      const access = await allowedAccess(caller, body.access_control);
      const now = clock.now();
      const row = await onUniqueViolation(
        () =>
          repo.insert({
            id: body.id,
            user_id: caller.id,
            base_model_id: body.base_model_id,
            name: body.name,
            params: writeJson(body.params),
            meta: writeJson(body.meta),
            access_control: access === null ? null : writeJson(access),
            is_active: body.is_active,
            created_at: now,
            updated_at: now,
          }),
        modelIdTaken,
      );
      log.info({ modelId: row.id, userId: caller.id }, 'model created');
      return presentModel(row);
    },

    /** Replaces every field but the id and the owner. The interface's refusal statuses: missing → 401, no write access (readable or not) → 400. */
    async update(caller: Caller, id: string, body: UpdateModelRequest): Promise<Model> {
      const row = await repo.findById(id);
      if (!row) throw modelNotFound();
      const who = await permissions.principal(caller);
      if (!canAccess(who, resourceOf(row), 'write')) throw modelUpdateForbidden();
      if (body.id !== id) throw unprocessable("Field 'id': a model's id cannot change (it must match the id query parameter)");
      if (body.base_model_id === id) throw unprocessable("Field 'base_model_id': must differ from the model's own id");
      if (caller.role !== 'admin' && (row.base_model_id === null || body.base_model_id === null || (await deps.isBaseModelId(id)))) throw modelUpdateForbidden();
      if (body.base_model_id !== null && body.base_model_id !== row.base_model_id) await checkNewBase(caller, id, body.base_model_id);
      // Who may read and write a model is its owner's (or an admin's) to say: a writer's list is ignored.
      const ownerOrAdmin = caller.role === 'admin' || caller.id === row.user_id;
      const access = ownerOrAdmin ? await allowedAccess(caller, body.access_control, accessControlOf(row)) : accessControlOf(row);
      const updated = await repo.update(id, {
        name: body.name,
        base_model_id: body.base_model_id,
        params: writeJson(body.params),
        meta: writeJson(body.meta),
        access_control: access === null ? null : writeJson(access),
        is_active: body.is_active,
        updated_at: clock.now(),
      });
      if (!updated) throw modelNotFound();
      return presentModel(updated);
    },

    /** Every registry model, as POST /import reads them back (admins). */
    async exportAll(): Promise<Model[]> {
      return (await repo.allWithOwners()).map(presentModel);
    },

    /**
     * Creates the models whose id is new and updates the others with the fields given, under the
     * same rules as create and update (Open WebUI's import).
     */
    async importModels(caller: Caller, entries: ImportedModel[]): Promise<true> {
      for (const entry of entries) {
        const row = await repo.findById(entry.id);
        if (row) {
          const current = presentModel(row);
          await this.update(caller, entry.id, {
            id: entry.id,
            name: entry.name ?? current.name,
            base_model_id: entry.base_model_id === undefined ? current.base_model_id : entry.base_model_id,
            params: entry.params ?? current.params,
            meta: entry.meta ?? current.meta,
            access_control: entry.access_control === undefined ? current.access_control : entry.access_control,
            is_active: entry.is_active ?? current.is_active,
          });
        } else {
          await this.create(caller, {
            id: entry.id,
            name: entry.name ?? entry.id,
            base_model_id: entry.base_model_id ?? null,
            params: entry.params ?? {},
            meta: entry.meta ?? {},
            access_control: entry.access_control === undefined ? null : entry.access_control,
            is_active: entry.is_active ?? true,
          });
        }
      }
      log.info({ count: entries.length, userId: caller.id }, 'models imported');
      return true;
    },

    async toggle(caller: Caller, id: string): Promise<Model> {
      const { row, who } = await readable(caller, id);
      if (!canAccess(who, resourceOf(row), 'write')) throw modelWriteUnauthorized();
      const toggled = await repo.toggle(id, clock.now());
      if (!toggled) throw modelToggleFailed();
      return presentModel(toggled);
    },

    async remove(caller: Caller, id: string): Promise<true> {
      const { row, who } = await readable(caller, id);
      if (!canAccess(who, resourceOf(row), 'write')) throw modelWriteUnauthorized();
      if (!(await repo.delete(id))) throw modelNotFound();
      log.info({ modelId: id, userId: caller.id }, 'model deleted');
      return true;
    },
  };
}
export type ModelsService = ReturnType<typeof createModelsService>;
