import type { Request } from 'express';
import { forbidden } from './errors';

/** What a browser may be loading when a GET changes state: a page (navigation) or a script's fetch. */
const NAVIGATION_OR_FETCH = new Set(['document', 'empty']);

/**
 * Refuses a state-changing GET (sign-out) that a browser sends to load a subresource: an image,
 * script, style or frame pointing at it from a shared chat would otherwise act as its viewer.
 * Sec-Fetch-Dest is absent from scripts and old browsers; only its presence with another value is refused.
 */
export function refuseSubresourceLoad(req: Request): void {
  const dest = req.get('sec-fetch-dest');
  if (dest !== undefined && !NAVIGATION_OR_FETCH.has(dest.toLowerCase())) {
    throw forbidden(`This address changes state and cannot be loaded as ${dest === 'image' ? 'an image' : `a ${dest}`}`, 'SUBRESOURCE_REFUSED');
  }
}
