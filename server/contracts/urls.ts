import { z } from 'zod';

/** An http(s) URL or the empty string (not set); trailing slashes dropped. */
export const OptionalUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => {
    if (value === '') return true;
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http:// or https:// URL (or empty)')
  .transform((value) => value.replace(/\/+$/, ''));
