/** What a master key of the encrypted-file secret store must be. */
const FORMAT = 'The secret store key must be 32 bytes (64 hex characters or base64)';

/** Reads a 32-byte master key given as 64 hex characters or base64. */
export function parseMasterKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error(FORMAT);
  return key;
}

/** True when `text` reads as a master key (checked with the other settings at start). */
export function isMasterKey(text: string): boolean {
  try {
    parseMasterKey(text);
    return true;
  } catch {
    return false;
  }
}
