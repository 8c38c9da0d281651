import type { CompletionRequest } from '../contracts/completions';
import type { Role } from '../contracts/auth';
import type { ImageGenerationPlug } from '../completions';
import type { FilesService } from '../files';
import { forbidden, isHttpError } from '../platform/http/errors';
import type { TasksService } from '../tasks';
import type { ImagesService } from './images.service';
import type { ImagesSettings } from './images-settings';

/** How often progress is told while an engine works, at most. */
const PROGRESS_EVERY_MS = 500;

function textOf(content: CompletionRequest['messages'][number]['content']): string {
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/**
 * The chat's image toggle: before the model answers, the task model may turn the conversation
 * into the image prompt (ENABLE_IMAGE_PROMPT_GENERATION), the engine makes the image (or, when
 * the message carries one of the person's images, edits it), progress is told as it works, and the
 * model is told what was made. A failing engine becomes a step with its error; the answer goes on.
 */
export function createImageStage(deps: {
  settings: ImagesSettings;
  images: ImagesService;
  files: Pick<FilesService, 'findMany'>;
  tasks: Pick<TasksService, 'imagePrompt'>;
  allowed(user: { id: string; role: Role }): Promise<boolean>;
}): ImageGenerationPlug {
  return {
    async prepare({ user }) {
      const config = await deps.settings.view();
      if (!config.ENABLE_IMAGE_GENERATION) throw forbidden('Image generation is turned off', 'IMAGE_GENERATION_DISABLED');
      if (!(await deps.allowed(user))) throw forbidden("This needs the permission 'features.image_generation'", 'PERMISSION_REQUIRED');
      return {
        async run({ messages, fileIds, modelId, signal, status }) {
          const started = performance.now();
          const settings = await deps.settings.view();
          const rows = fileIds.length > 0 ? await deps.files.findMany(fileIds) : [];
          const source = settings.ENABLE_IMAGE_EDIT ? rows.filter((r) => r.user_id === user.id && r.mime_type.startsWith('image/') && r.mime_type !== 'image/svg+xml').at(-1) : undefined;
          const lastUser = textOf([...messages].reverse().find((m) => m.role === 'user')?.content ?? '').trim();
          const name = source ? 'edit_image' : 'generate_image';
          const say = (description: string, done: boolean, extra: Record<string, unknown> = {}) => status({ action: 'image_generation', description, done, ...extra });

          let prompt = lastUser;
          if (!source && settings.ENABLE_IMAGE_PROMPT_GENERATION && messages.length > 0) {
            await say('Writing the image prompt', false);
            const conversation = messages.filter((m) => m.role === 'user' || m.role === 'assistant').map((m) => ({ role: m.role, content: textOf(m.content) }));
            prompt = (await deps.tasks.imagePrompt(user, conversation, { chat: { id: modelId }, signal }).catch(() => lastUser)) || lastUser;
          }
          await say(source ? 'Editing the image' : 'Generating an image', false);
          let told = 0;
          const progress = (done: number) => {
            if (Date.now() - told < PROGRESS_EVERY_MS) return;
            told = Date.now();
            void say(source ? 'Editing the image' : 'Generating an image', false, { progress: Math.round(done * 100) });
          };
          const base = { id: `image-${Date.now()}`, name, arguments: JSON.stringify({ prompt }), kind: 'image' as const };
          try {
            if (!prompt) throw forbidden('There is nothing to draw: the message is empty', 'IMAGE_PROMPT_EMPTY');
            const made = source
              ? await deps.images.edit(user, { image: source.id, prompt }, { progress, signal })
              : await deps.images.generate(user, { prompt, n: 1 }, { progress, signal });
            await say(source ? 'Edited the image' : 'Generated an image', true);
            return {
              step: { ...base, result: prompt, error: null, duration_ms: Math.round(performance.now() - started), files: made.map((m) => m.file) },
              note: `${source ? 'The image the user sent was edited' : 'An image was generated'} for the user from this prompt: "${prompt}". It is shown to them with your answer. Do not say that you cannot make or show images; say in one or two sentences what was made.`,
            };
          } catch (error) {
            if (signal.aborted || !isHttpError(error)) throw error;
            await say(`The image could not be made: ${error.message}`, true, { error: true });
            return {
              step: { ...base, result: '', error: error.message, duration_ms: Math.round(performance.now() - started) },
              note: `Making the image the user asked for failed: ${error.message}. Tell the user so in one sentence.`,
            };
          }
        },
      };
    },
  };
}
