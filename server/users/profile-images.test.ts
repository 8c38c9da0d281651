import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isHttpError } from '../platform/http/errors';
import { createProfileImageStore } from './profile-images';

const root = path.join(os.tmpdir(), 'parley-profile-images-unit');
const store = createProfileImageStore(root);

describe('profile image storage paths', () => {
  it('accepts the paths the store makes and resolves them inside the owner folder', () => {
    const image = store.parse('profile-images/0b6e-user/3f2a-name.png');
    expect(image.absolute).toBe(path.join(root, '0b6e-user', '3f2a-name.png'));
    expect(image.ownerId).toBe('0b6e-user');
  });

  it('never resolves any string to a file outside the folder: it refuses with 400 instead', () => {
    const pieces = fc.constantFrom('..', '.', '/', '\\', '%2e', 'profile-images', 'a', 'x.png', '\u0000', '~', 'C:', '');
    const hostile = fc.tuple(fc.array(pieces, { maxLength: 8 }), fc.constantFrom('/', '\\', '')).map(([parts, sep]) => parts.join(sep));
    fc.assert(
      fc.property(fc.oneof(fc.string(), hostile), (candidate) => {
        try {
          const image = store.parse(candidate);
          const relative = path.relative(root, image.absolute);
          expect(relative.startsWith('..') || path.isAbsolute(relative)).toBe(false);
          expect(relative.split(path.sep)).toHaveLength(2);
        } catch (error) {
          expect(isHttpError(error) && error.status === 400).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
