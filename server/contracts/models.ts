import { z } from 'zod';
import { isAllowedProfileImageUrl, ProfileImageUrl } from './profile-image';
import { AccessControl } from './access';
import { ProviderKind } from './providers';

/** A model id: may contain `/`, so it always travels as the `id` query parameter. */
export const ModelId = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(256, 'must be at most 256 characters')
  // eslint-disable-next-line no-control-regex
  .refine((id) => !/[\u0000-\u001f\u007f]/.test(id), 'must not contain control characters');

/** Generation parameters a custom model carries; unknown keys are kept and passed on. */
export const ModelParams = z.looseObject({
  /** System prompt put before the conversation. */
  system: z.string().max(200_000).nullable().optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  max_tokens: z.number().int().positive().nullable().optional(),
  top_p: z.number().min(0).max(1).nullable().optional(),
  seed: z.number().int().nullable().optional(),
  stop: z.union([z.string(), z.array(z.string())]).nullable().optional(),
});
export type ModelParams = z.infer<typeof ModelParams>;

/** A knowledge base attached to a model. */
export const ModelKnowledgeRef = z.looseObject({
  id: z.string().min(1),
  name: z.string().optional(),
  /** `collection` for a knowledge base. */
  type: z.string().optional(),
});

/** Model metadata; unknown keys are kept. */
export const ModelMeta = z.looseObject({
  profile_image_url: ProfileImageUrl.optional(),
  description: z.string().max(100_000).nullable().optional(),
  /** vision, file_upload, web_search, image_generation, code_interpreter, citations, status_updates, usage. */
  capabilities: z.record(z.string(), z.boolean()).nullable().optional(),
  knowledge: z.array(ModelKnowledgeRef).max(1000).optional(),
  /** Tool ids the model may call, e.g. `server:mcp:<server_id>`. */
  toolIds: z.array(z.string()).max(1000).optional(),
  tags: z.array(z.unknown()).max(100).optional(),
  suggestion_prompts: z.unknown().optional(),
});
export type ModelMeta = z.infer<typeof ModelMeta>;

/** POST /api/v1/models/create. `base_model_id: null` describes a base model itself (its name, meta and access). */
export const CreateModelRequest = z.object({
  id: ModelId,
  name: z.string().trim().min(1, 'must not be empty').max(256, 'must be at most 256 characters'),
  base_model_id: ModelId.nullable().optional().default(null),
  params: ModelParams.optional().default({}),
  meta: ModelMeta.optional().default({}),
  /** Omitted or null: public read. */
  access_control: AccessControl.optional().default(null),
  is_active: z.boolean().optional().default(true),
});
export type CreateModelRequest = z.infer<typeof CreateModelRequest>;

/** POST /api/v1/models/model/update: the same fields as create, all required; `id` cannot change. */
export const UpdateModelRequest = z.object({
  id: ModelId,
  name: CreateModelRequest.shape.name,
  base_model_id: ModelId.nullable(),
  params: ModelParams,
  meta: ModelMeta,
  access_control: AccessControl,
  is_active: z.boolean(),
});
export type UpdateModelRequest = z.infer<typeof UpdateModelRequest>;

/** An imported model's meta without a picture the avatar rule refuses (the model then shows the default picture). */
function withoutRefusedPicture(entry: unknown): unknown {
  if (typeof entry !== 'object' || entry === null || !('meta' in entry)) return entry;
  const meta: unknown = entry.meta;
  if (typeof meta !== 'object' || meta === null || !('profile_image_url' in meta)) return entry;
  const url = meta.profile_image_url;
  if (url === '' || (typeof url === 'string' && isAllowedProfileImageUrl(url))) return entry;
  const { profile_image_url: _refused, ...rest } = meta;
  return { ...entry, meta: rest };
}

/**
 * One model of POST /api/v1/models/import, as GET /api/v1/models/export (and Open WebUI's export)
 * writes it: an existing id is updated with the fields given, a new id is created. An import never
 * fails for its picture: one the avatar rule refuses falls back to the default.
 */
export const ImportedModel = z.preprocess(
  withoutRefusedPicture,
  z.object({
    id: ModelId,
    /** Defaults to the id for a new model. */
    name: CreateModelRequest.shape.name.optional(),
    base_model_id: ModelId.nullable().optional(),
    params: ModelParams.optional(),
    meta: ModelMeta.optional(),
    access_control: AccessControl.optional(),
    is_active: z.boolean().optional(),
  }),
);
export type ImportedModel = z.infer<typeof ImportedModel>;

/** Body of POST /api/v1/models/import. */
export const ModelsImportRequest = z.object({ models: z.array(ImportedModel).max(1000, 'must hold at most 1000 models') });
export type ModelsImportRequest = z.infer<typeof ModelsImportRequest>;

/** `?id=` of the single-model endpoints. */
export const ModelIdQuery = z.object({ id: ModelId });
/** `?id=` (optional) of the model list. */
export const ModelListQuery = z.object({ id: ModelId.optional() });

/** A registry entry (custom model, or a description of a base model when base_model_id is null). */
export const Model = z.object({
  id: z.string(),
  name: z.string(),
  base_model_id: z.string().nullable(),
  /** Owner. */
  user_id: z.string(),
  params: ModelParams,
  meta: ModelMeta,
  access_control: AccessControl,
  is_active: z.boolean(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type Model = z.infer<typeof Model>;

/** An entry of GET /api/v1/models/list: the model with its owner. */
export const ModelListEntry = Model.extend({
  user: z.object({ id: z.string(), name: z.string(), email: z.string(), role: z.string() }).nullable(),
});
export type ModelListEntry = z.infer<typeof ModelListEntry>;

/** A raw provider model as GET /api/models lists it. */
export const BaseModel = z.object({
  /** The id to chat with: `<prefix_id>.<provider model id>` when the provider has a prefix. */
  id: z.string(),
  name: z.string(),
  object: z.literal('model'),
  created: z.number(),
  owned_by: ProviderKind,
  base_model_id: z.null(),
  /** Which provider answers it: kind and index into its URL list. */
  provider: ProviderKind,
  provider_index: z.number(),
  /** The id the provider itself knows the model by. */
  provider_model_id: z.string(),
  tags: z.array(z.unknown()),
  is_active: z.literal(true),
});
export type BaseModel = z.infer<typeof BaseModel>;

/** An entry of GET /api/v1/models/available: what the caller may chat with. */
export const AvailableModel = z.object({
  id: z.string(),
  name: z.string(),
  /** `custom` for registry models, `base` for provider models. */
  kind: z.enum(['custom', 'base']),
  base_model_id: z.string().nullable(),
  meta: ModelMeta,
  /** For base models, and custom models whose base model is listed right now. */
  provider: ProviderKind.nullable(),
  provider_index: z.number().nullable(),
  /** The name an admin gave that connection, if any (model lists show it over its models). */
  provider_name: z.string().nullable().optional(),
});
export type AvailableModel = z.infer<typeof AvailableModel>;

/** Admin setting of the model registry (GET/POST /api/v1/models/config). */
export const ModelsConfig = z.object({
  /** On: every user may chat with every base model. Off: only admins, and users granted a registry entry. */
  BASE_MODELS_AVAILABLE_TO_ALL: z.boolean(),
});
export type ModelsConfig = z.infer<typeof ModelsConfig>;
export const ModelsConfigUpdate = ModelsConfig.partial();
export type ModelsConfigUpdate = z.infer<typeof ModelsConfigUpdate>;
/** Default: on, so a small office can chat at once. */
export const DEFAULT_MODELS_CONFIG: ModelsConfig = { BASE_MODELS_AVAILABLE_TO_ALL: true };
