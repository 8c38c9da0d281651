import { readdir } from 'node:fs/promises';

/** Names of model files in the library: which files it takes, their stems, a download's file name. */

/** Model files the library takes: GGUF (llama.cpp) and whisper.cpp's ggml `.bin`. */
export const MODEL_FILE = /\.(gguf|bin)$/i;
export const extensionOf = (name: string) => (/\.bin$/i.test(name) ? '.bin' : '.gguf');

/** A file-name-safe stem for a model's id. */
export const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(MODEL_FILE, '')
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80) || 'model';

/** The model file a download URL names (`.gguf` added when it names none). */
export const fileNameOfUrl = (url: string) => {
  const last = decodeURIComponent(new URL(url).pathname.split('/').filter(Boolean).at(-1) ?? 'model.gguf');
  return MODEL_FILE.test(last) ? last : `${last}.gguf`;
};

/** A file name for `base` that no file in `dir` has yet (`name-2.gguf`, …), safe on every OS. */
export async function freeFileName(dir: string, base: string): Promise<string> {
  const taken = new Set(await readdir(dir).catch(() => [] as string[]));
  const extension = extensionOf(base);
  const stem = base.replace(MODEL_FILE, '').replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120) || 'model';
  for (let n = 1; ; n += 1) {
    const name = n === 1 ? `${stem}${extension}` : `${stem}-${n}${extension}`;
    if (!taken.has(name)) return name;
  }
}
