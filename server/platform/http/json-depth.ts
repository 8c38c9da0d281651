import { badRequest } from './errors';

/** How deeply a JSON body may nest: real payloads stay far below; 200,000 levels broke the code walking them. */
export const MAX_JSON_DEPTH = 200;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/**
 * The deepest nesting of arrays and objects in a JSON text, counted on its bytes before it is
 * parsed (UTF-8 continuation bytes never equal a bracket or quote). Stops once past `max`.
 */
export function jsonDepth(body: Uint8Array, max = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i]!;
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (OPENERS.has(byte)) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > max) return deepest;
    } else if (CLOSERS.has(byte)) depth--;
  }
  return deepest;
}

/** body-parser's `verify`: refuses (400) a body nested deeper than MAX_JSON_DEPTH before it is parsed. */
export function refuseDeepJson(_req: unknown, _res: unknown, body: Buffer): void {
  if (jsonDepth(body) > MAX_JSON_DEPTH) throw badRequest(`The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`, 'JSON_TOO_DEEP');
}
