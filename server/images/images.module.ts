import { readFile } from 'node:fs/promises';
import type { ConfigService } from '../config';
import type { Role } from '../contracts/auth';
import type { FilesService } from '../files';
import type { Logger } from '../platform/log';
import type { SecretStore } from '../secrets';
import type { TasksService } from '../tasks';
import { createEngineNet } from './engine-net';
import { createImageStage } from './image-stage';
import { createImagesService } from './images.service';
import { createImagesSettings } from './images-settings';

/**
 * Image generation: its settings (keys in the secret store), the engines, the service that
 * stores what they make as the caller's files, and the chat's image toggle (plugged into the
 * completion pipeline). Engine URLs are the admin's and trusted; every connection asks
 * `beforeConnect` first (the offline guard).
 */
export function createImages(deps: {
  config: Pick<ConfigService, 'get' | 'set'>;
  secrets: SecretStore;
  files: FilesService;
  tasks: Pick<TasksService, 'imagePrompt'>;
  allowed(user: { id: string; role: Role }): Promise<boolean>;
  log: Logger;
  fetch?: typeof fetch;
  beforeConnect?: (url: string) => Promise<void>;
}) {
  const settings = createImagesSettings({ config: deps.config, secrets: deps.secrets });
  const net = createEngineNet({ fetch: deps.fetch, beforeConnect: deps.beforeConnect });
  const service = createImagesService({ settings, files: deps.files, net, log: deps.log });
  const stage = createImageStage({ settings, images: service, files: deps.files, tasks: deps.tasks, allowed: deps.allowed });
  return {
    settings,
    service,
    stage,
    /** The bytes of a stored image (the /v1 answer inlines them as base64). */
    bytes: (fileId: string) => readFile(deps.files.pathOf(fileId)),
  };
}
export type Images = ReturnType<typeof createImages>;
