import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { badRequest } from '../platform/http/errors';
import { newId } from '../platform/ids';

/** Every stored profile image path: `profile-images/<user id>/<random name>.<ext>`, nothing else. */
const STORAGE_PATH = /^profile-images\/([0-9A-Za-z-]{1,64})\/([0-9A-Za-z-]{1,64}\.[0-9a-z]{1,8})$/;

/** A stored image, addressed by its storage path. */
export interface StoredImage {
  ownerId: string;
  filename: string;
  storagePath: string;
  /** Absolute path on disk, always inside the profile image folder. */
  absolute: string;
}

/**
 * Profile images on disk under `<root>/<user id>/`. Storage paths are parsed strictly (one
 * fixed shape, no `..`, no separators of their own), then checked again after resolving, so a
 * request can never address a file outside the folder.
 */
export function createProfileImageStore(root: string) {
  const base = path.resolve(root);

  function locate(ownerId: string, filename: string): string {
    const absolute = path.resolve(base, ownerId, filename);
    if (path.dirname(path.dirname(absolute)) !== base) throw badRequest('Invalid image path', 'INVALID_PATH');
    return absolute;
  }

  return {
    root: base,

    /** Parses a storage path from a request; 400 when it is not one this store could have made. */
    parse(storagePath: string): StoredImage {
      const match = STORAGE_PATH.exec(storagePath);
      if (!match?.[1] || !match[2]) throw badRequest("Invalid image path: 'path' must be a storage path returned by the upload", 'INVALID_PATH');
      return { ownerId: match[1], filename: match[2], storagePath, absolute: locate(match[1], match[2]) };
    },

    /** Writes an image of `ownerId` under a fresh random name. */
    async save(ownerId: string, bytes: Uint8Array, ext: string): Promise<StoredImage> {
      const filename = `${newId()}.${ext.toLowerCase().replace(/[^0-9a-z]/g, '') || 'img'}`;
      const storagePath = `profile-images/${ownerId}/${filename}`;
      const image = this.parse(storagePath);
      await mkdir(path.dirname(image.absolute), { recursive: true });
      await writeFile(image.absolute, bytes, { flag: 'wx' });
      return image;
    },

    /** True when the image is a regular file on disk. */
    async exists(image: StoredImage): Promise<boolean> {
      try {
        return (await stat(image.absolute)).isFile();
      } catch {
        return false;
      }
    },

    async remove(image: StoredImage): Promise<void> {
      await rm(image.absolute, { force: true });
    },

    /** Removes a user's whole image folder. */
    async removeAllOf(ownerId: string): Promise<void> {
      if (!/^[0-9A-Za-z-]{1,64}$/.test(ownerId)) return;
      await rm(path.join(base, ownerId), { recursive: true, force: true });
    },

    /** File names stored for a user (for tests and clean-up checks). */
    async list(ownerId: string): Promise<string[]> {
      try {
        return await readdir(path.join(base, ownerId));
      } catch {
        return [];
      }
    },
  };
}
export type ProfileImageStore = ReturnType<typeof createProfileImageStore>;
