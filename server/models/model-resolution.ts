import type { AvailableModel, BaseModel, Model, ModelMeta, ModelParams } from '../contracts/models';
import type { ProviderKind } from '../contracts/providers';
import type { ConfigService } from '../config';
import { canAccess, type PermissionsService } from '../permissions';
import type { CatalogEntry, Provider, Providers } from '../providers';
import { ModelsConfigSection } from './models-config';
import { modelUnavailable } from './models.errors';
import { presentModel } from './models.present';
import type { ModelRow, ModelsRepo, ModelWithOwnerRow } from './models.repo';
import { resourceOf, type Caller } from './models.service';

/** Generation settings a model carries, with unset (null) values dropped. */
export interface ChatParams {
  system?: string;
  temperature?: number;
  max_tokens?: number;
  top_p?: number;
  seed?: number;
  stop?: string | string[];
  /** Every other key of the model's params, as stored. */
  extra: Record<string, unknown>;
}

/** What a chat completion needs to know about the model it was asked for. */
export interface ResolvedModel {
  /** The client to call. */
  provider: Provider;
  /** Which configured provider that is. */
  providerRef: { kind: ProviderKind; index: number };
  /** The id to send to the provider (prefix removed). */
  providerModelId: string;
  params: ChatParams;
  meta: {
    knowledge: NonNullable<ModelMeta['knowledge']>;
    toolIds: string[];
    capabilities: Record<string, boolean> | null;
    /** The whole meta object as stored. */
    all: ModelMeta;
  };
  /** The registry entry (custom model or base-model description), or the base model itself. */
  model: Model | BaseModel;
  /** The base model it runs on. */
  baseModel: BaseModel;
}

export interface ModelResolutionDeps {
  repo: ModelsRepo;
  permissions: PermissionsService;
  providers: Providers;
  config: ConfigService;
}

function chatParams(params: ModelParams): ChatParams {
  const { system, temperature, max_tokens, top_p, seed, stop, ...extra } = params;
  return {
    ...(typeof system === 'string' && system.trim() !== '' ? { system } : {}),
    ...(typeof temperature === 'number' ? { temperature } : {}),
    ...(typeof max_tokens === 'number' ? { max_tokens } : {}),
    ...(typeof top_p === 'number' ? { top_p } : {}),
    ...(typeof seed === 'number' ? { seed } : {}),
    ...(stop !== null && stop !== undefined ? { stop } : {}),
    extra,
  };
}

function resolvedMeta(meta: ModelMeta): ResolvedModel['meta'] {
  return { knowledge: meta.knowledge ?? [], toolIds: meta.toolIds ?? [], capabilities: meta.capabilities ?? null, all: meta };
}

/** The name an admin gave an entry's connection, or null. */
function nameOf(entry: CatalogEntry): string | null {
  return entry.handle.config.name?.trim() || null;
}

/**
 * Which models a caller may chat with, and what one of them resolves to.
 * - A registry entry decides for its id: it must be active and readable by the caller.
 *   A custom model runs on its base model; an entry with `base_model_id: null` describes (and
 *   gates) the base model of the same id.
 * - A base model without an entry is open to everyone while BASE_MODELS_AVAILABLE_TO_ALL is on
 *   (default), else to admins only.
 */
export function createModelResolution(deps: ModelResolutionDeps) {
  const { repo, permissions, providers, config } = deps;

  async function baseModelsForAll(caller: Caller): Promise<boolean> {
    return caller.role === 'admin' || (await config.get(ModelsConfigSection)).BASE_MODELS_AVAILABLE_TO_ALL;
  }

  /**
   * Whether a registry row may decide for its id. An entry that describes a base model
   * (`base_model_id: null`) or whose id is (or has since become) a base model id counts only when
   * an admin owns it: a user's entry can never hide, gate or re-prompt a base model.
   */
  function authoritative(row: ModelWithOwnerRow, isBaseId: boolean): boolean {
    return row.owner_role === 'admin' || (row.base_model_id !== null && !isBaseId);
  }

  /** The caller as the base-model rules see a row's owner (an owner row that is gone counts as no one). */
  const ownerOf = (row: ModelWithOwnerRow): Caller | undefined => (row.owner_role ? { id: row.user_id, role: row.owner_role as Caller['role'] } : undefined);

  /**
   * Whether `caller` may use base model `baseId`: an admin's entry describing it (active, and
   * readable by the caller) decides; without one, BASE_MODELS_AVAILABLE_TO_ALL (admins always).
   */
  async function mayUseBase(caller: Caller, baseId: string): Promise<boolean> {
    const row = await repo.oneWithOwner(baseId);
    if (row && authoritative(row, true)) return Boolean(row.is_active) && canAccess(await permissions.principal(caller), resourceOf(row), 'read');
    return baseModelsForAll(caller);
  }

  /** {@link mayUseBase} remembered per person and base model, for one listing. */
  function memoized(): (caller: Caller, baseId: string) => Promise<boolean> {
    const answers = new Map<string, Promise<boolean>>();
    return (caller, baseId) => {
      const key = JSON.stringify([caller.id, caller.role, baseId]);
      let answer = answers.get(key);
      if (!answer) answers.set(key, (answer = mayUseBase(caller, baseId)));
      return answer;
    };
  }

  /**
   * Whether `caller` may chat with custom model `row` as far as its base model goes: its owner
   * must be allowed the base model; an admin's model lends its base model to its readers (an admin
   * could grant the base model itself), anyone else's does not: the caller needs it too.
   */
  async function baseAllowedFor(caller: Caller, row: ModelWithOwnerRow, allowed = mayUseBase): Promise<boolean> {
    const base = row.base_model_id as string;
    const owner = ownerOf(row);
    if (!owner || !(await allowed(owner, base))) return false;
    return owner.role === 'admin' || owner.id === caller.id || allowed(caller, base);
  }

  function resolved(entry: CatalogEntry, row: ModelRow | undefined): ResolvedModel {
    const model = row ? presentModel(row) : undefined;
    return {
      provider: entry.handle.provider,
      providerRef: { kind: entry.handle.kind, index: entry.handle.index },
      providerModelId: entry.providerModelId,
      params: chatParams(model?.params ?? {}),
      meta: resolvedMeta(model?.meta ?? {}),
      model: model ?? entry.model,
      baseModel: entry.model,
    };
  }

  return {
    mayUseBase,

    /** The merged base models of every enabled provider (admin view, GET /api/models). */
    async baseModels(): Promise<BaseModel[]> {
      return providers.catalog.list();
    },

    /** Everything the caller may chat with, for the model picker. */
    async available(caller: Caller): Promise<AvailableModel[]> {
      const [allRows, who, entries, openBase] = await Promise.all([repo.allWithOwners(), permissions.principal(caller), providers.catalog.entries(), baseModelsForAll(caller)]);
      const usable = (row: ModelRow) => Boolean(row.is_active) && canAccess(who, resourceOf(row), 'read');
      const byId = new Map(entries.map((e) => [e.model.id, e]));
      const rows = allRows.filter((row) => authoritative(row, byId.has(row.id)));
      const descriptions = new Map(rows.filter((r) => r.base_model_id === null).map((r) => [r.id, r]));

      const allowed = memoized();
      const shown = await Promise.all(rows.map(async (row) => row.base_model_id !== null && usable(row) && (await baseAllowedFor(caller, row, allowed))));
      const custom = rows
        .filter((_row, i) => shown[i])
        .map((row): AvailableModel => {
          const model = presentModel(row);
          const base = byId.get(row.base_model_id as string);
          return { id: model.id, name: model.name, kind: 'custom', base_model_id: model.base_model_id, meta: model.meta, provider: base?.handle.kind ?? null, provider_index: base?.handle.index ?? null, provider_name: base ? nameOf(base) : null };
        });
      const base = entries
        .filter((entry) => {
          const description = descriptions.get(entry.model.id);
          return description ? usable(description) : openBase;
        })
        .map((entry): AvailableModel => {
          const description = descriptions.get(entry.model.id);
          const model = description ? presentModel(description) : undefined;
          return { id: entry.model.id, name: model?.name ?? entry.model.name, kind: 'base', base_model_id: null, meta: model?.meta ?? {}, provider: entry.handle.kind, provider_index: entry.handle.index, provider_name: nameOf(entry) };
        });
      const customIds = new Set(custom.map((m) => m.id));
      return [...custom, ...base.filter((m) => !customIds.has(m.id))];
    },

    /**
     * Resolves `modelId` for a chat by `caller`: the provider to call, the provider's model id,
     * params and meta. Throws {@link modelUnavailable} (404, code MODEL_NOT_FOUND) when the model
     * is missing, inactive, not usable by the caller, or offered by no enabled provider; in that
     * case nothing is sent to any provider.
     */
    async resolveForChat(caller: Caller, modelId: string): Promise<ResolvedModel> {
      const found = await repo.oneWithOwner(modelId);
      const row = found && authoritative(found, found.base_model_id === null || (await providers.forModel(found.id)) !== undefined) ? found : undefined;
      if (row) {
        const who = await permissions.principal(caller);
        if (!row.is_active || !canAccess(who, resourceOf(row), 'read')) throw modelUnavailable(modelId);
        if (row.base_model_id !== null && !(await baseAllowedFor(caller, row))) throw modelUnavailable(modelId);
        const entry = await providers.forModel(row.base_model_id ?? row.id);
        if (!entry) throw modelUnavailable(modelId);
        return resolved(entry, row);
      }
      if (!(await baseModelsForAll(caller))) throw modelUnavailable(modelId);
      const entry = await providers.forModel(modelId);
      if (!entry) throw modelUnavailable(modelId);
      return resolved(entry, undefined);
    },
  };
}
export type ModelResolution = ReturnType<typeof createModelResolution>;
