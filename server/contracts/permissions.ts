import { z } from 'zod';

/** Workspace areas a user may create things in. */
export const WorkspacePermissions = z.object({
  models: z.boolean(),
  knowledge: z.boolean(),
  prompts: z.boolean(),
  tools: z.boolean(),
});
const sharing = {
  public_models: z.boolean(),
  public_knowledge: z.boolean(),
  public_tools: z.boolean(),
  /** Notes with `access_control: null` (everyone reads them). */
  public_notes: z.boolean(),
};
/** What a user may share with everyone. Keys added later default, so objects saved before them still read. */
export const SharingPermissions = z.object({ ...sharing, public_notes: sharing.public_notes.default(false) });
const chat = {
  file_upload: z.boolean(),
  delete: z.boolean(),
  share: z.boolean(),
  export: z.boolean(),
  /** Speak instead of typing (the microphone, `/api/v1/audio/transcriptions`). */
  stt: z.boolean(),
  /** Have answers read aloud by the service's voices (`/api/v1/audio/speech`). */
  tts: z.boolean(),
};
/** What a user may do with chats. `stt` and `tts` came later: a set saved before them takes their defaults. */
export const ChatPermissions = z.object({ ...chat, stt: chat.stt.default(true), tts: chat.tts.default(true) });
const features = {
  web_search: z.boolean(),
  image_generation: z.boolean(),
  code_interpreter: z.boolean(),
  /** Notes (`/api/v1/notes`). */
  notes: z.boolean(),
  /** Memories (`/api/v1/memories`, memory in chats). */
  memories: z.boolean(),
  /** Create channels (admins always may; ENABLE_CHANNELS must be on). */
  channels: z.boolean(),
};
/** Optional features. Keys added later default, so objects saved before them still read. */
export const FeaturePermissions = z.object({ ...features, notes: features.notes.default(true), memories: features.memories.default(true), channels: features.channels.default(true) });

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
  sharing: z.object(sharing).partial().optional(),
  chat: z.object(chat).partial().optional(),
  features: z.object(features).partial().optional(),
});
export type PartialPermissions = z.infer<typeof PartialPermissions>;

/** The system default set a fresh installation starts with. */
export const DEFAULT_PERMISSIONS: Permissions = {
  workspace: { models: true, knowledge: true, prompts: true, tools: false },
  sharing: { public_models: false, public_knowledge: false, public_tools: false, public_notes: false },
  chat: { file_upload: true, delete: true, share: true, export: true, stt: true, tts: true },
  features: { web_search: true, image_generation: true, code_interpreter: true, notes: true, memories: true, channels: true },
};

/** One permission, named `area.name` (`workspace.prompts`, `chat.file_upload`). */
export type PermissionKey = { [A in keyof Permissions]: `${A}.${keyof Permissions[A] & string}` }[keyof Permissions];

/** Whether a permissions object grants one permission. */
export function grants(permissions: Permissions, key: PermissionKey): boolean {
  const [area, name] = key.split('.') as [keyof Permissions, string];
  return (permissions[area] as Record<string, boolean>)[name] === true;
}
