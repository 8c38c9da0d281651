/** A vector as stored in SQLite: raw little-endian float32 bytes. */
export function blobOf(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/** Float32 view of a stored embedding (copied when the bytes are not 4-aligned). */
export function vectorOf(blob: Buffer | Uint8Array | null): Float32Array | null {
  if (!blob || blob.length === 0 || blob.length % 4 !== 0) return null;
  if (blob.byteOffset % 4 === 0) return new Float32Array(blob.buffer, blob.byteOffset, blob.length / 4);
  return new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.length));
}
