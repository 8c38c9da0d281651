import { useState } from 'react';
import { chatsApi } from '../../../api/chats';
import { isMissing, messageOf } from '../../../components/Feedback';
import { useToast } from '../../../components/Toasts';
import { useT } from '../../../lib/i18n';
import type { FileRef } from '../store';

/** A file being attached to the next message: uploading (progress 0..1), saved (`id`) or failed. */
export interface Upload {
  key: string;
  name: string;
  size: number;
  progress: number;
  id?: string;
  error?: string;
  controller: AbortController;
  /** A local picture of an image, for its thumbnail (an object URL). */
  preview?: string;
}

/** Stores one file (with progress), answering what was stored. */
export type UploadFile = (file: File, onProgress: (fraction: number) => void, signal: AbortSignal) => Promise<Array<{ id: string }>>;

/**
 * Files attached to the next message: each uploads at once (to the chat's attachments unless
 * `upload` says where), with progress; removing one cancels or deletes it.
 */
export function useUploads(upload: UploadFile = chatsApi.upload) {
  const t = useT();
  const toast = useToast();
  const [uploads, setUploads] = useState<Upload[]>([]);

  const add = (files: FileList | File[]) => {
    for (const file of Array.from(files)) {
      const key = `${file.name}-${file.size}-${Math.random()}`;
      const controller = new AbortController();
      const preview = file.type.startsWith('image/') ? URL.createObjectURL(file) : undefined;
      setUploads((list) => [...list, { key, name: file.name, size: file.size, progress: 0, controller, ...(preview ? { preview } : {}) }]);
      const set = (patch: Partial<Upload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...patch } : u)));
      upload(file, (p) => set({ progress: p }), controller.signal)
        .then((res) => {
          const saved = Array.isArray(res) ? res[0] : (res as unknown as { id: string });
          if (!saved) throw new Error(t('chat.uploadNoFile'));
          set({ id: saved.id, progress: 1 });
        })
        .catch((error: unknown) => {
          if ((error as Error).name === 'AbortError') return;
          const detail = isMissing(error) ? t('common.notAvailable') : messageOf(error);
          set({ error: detail });
          toast(t('chat.uploadFailed', { name: file.name, detail }), 'error');
        });
    }
  };

  const remove = (u: Upload) => {
    u.controller.abort();
    if (u.preview) URL.revokeObjectURL(u.preview);
    setUploads((list) => list.filter((x) => x.key !== u.key));
    if (u.id) void chatsApi.removeAttachment(u.id).catch(() => undefined);
  };

  return {
    uploads,
    add,
    remove,
    /** True while a file is still on its way. */
    busy: uploads.some((u) => !u.id && !u.error),
    /** The saved files, as the message refers to them. */
    saved: (): FileRef[] => uploads.filter((u) => u.id).map((u) => ({ type: 'file' as const, id: u.id!, name: u.name })),
    /** True when an image is attached. */
    hasImage: uploads.some((u) => u.preview),
    clear: () => {
      for (const u of uploads) if (u.preview) URL.revokeObjectURL(u.preview);
      setUploads([]);
    },
  };
}
