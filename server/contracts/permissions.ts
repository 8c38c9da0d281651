import { z } from 'zod';

/** Workspace areas a user may create things in. */
export const WorkspacePermissions = z.object({
  models: z.boolean(),
  knowledge: z.boolean(),
  prompts: z.boolean(),
  tools: z.boolean(),
});
/** What a user may share with everyone. */
export const SharingPermissions = z.object({
  public_models: z.boolean(),
  public_knowledge: z.boolean(),
  public_tools: z.boolean(),
});
/** What a user may do with chats. */
export const ChatPermissions = z.object({
  file_upload: z.boolean(),
  delete: z.boolean(),
  share: z.boolean(),
  export: z.boolean(),
  /** Speak instead of typing (the microphone, `/api/v1/audio/transcriptions`). */
  stt: z.boolean(),
  /** Have answers read aloud by the service's voices (`/api/v1/audio/speech`). */
  tts: z.boolean(),
});
/** Optional features. */
export const FeaturePermissions = z.object({
  web_search: z.boolean(),
  image_generation: z.boolean(),
  code_interpreter: z.boolean(),
});

/** The full Permissions object (all leaves boolean). */
export const Permissions = z.object({
  workspace: WorkspacePermissions,
  sharing: SharingPermissions,
  chat: ChatPermissions,
  features: FeaturePermissions,
});
export type Permissions = z.infer<typeof Permissions>;

/** A partial Permissions object, as groups carry. */
export const PartialPermissions = z.object({
  workspace: WorkspacePermissions.partial().optional(),
  sharing: SharingPermissions.partial().optional(),
  chat: ChatPermissions.partial().optional(),
  features: FeaturePermissions.partial().optional(),
});
export type PartialPermissions = z.infer<typeof PartialPermissions>;

/** The system default set a fresh installation starts with. */
export const DEFAULT_PERMISSIONS: Permissions = {
  workspace: { models: true, knowledge: true, prompts: true, tools: false },
  sharing: { public_models: false, public_knowledge: false, public_tools: false },
  chat: { file_upload: true, delete: true, share: true, export: true, stt: true, tts: true },
  features: { web_search: true, image_generation: true, code_interpreter: true },
};

/** One permission, named `area.name` (`workspace.prompts`, `chat.file_upload`). */
export type PermissionKey = { [A in keyof Permissions]: `${A}.${keyof Permissions[A] & string}` }[keyof Permissions];

/** Whether a permissions object grants one permission. */
export function grants(permissions: Permissions, key: PermissionKey): boolean {
  const [area, name] = key.split('.') as [keyof Permissions, string];
  return (permissions[area] as Record<string, boolean>)[name] === true;
}
