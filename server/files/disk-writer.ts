import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileEmpty, fileTooLarge, fileTypeNotAllowed } from './file-errors';
import { SNIFF_BYTES, sniffType } from './sniff';

/** What was written. */
export interface WrittenFile {
  size: number;
  /** SHA-256, hex. */
  hash: string;
  /** Sniffed from the content. */
  mime: string;
}

/**
 * A pass-through that counts bytes against the limit, hashes, and sniffs the type once the first
 * SNIFF_BYTES arrived (or the file ended), failing early so a refused file is not written whole.
 */
class GuardStream extends Transform {
  size = 0;
  mime = '';
  private readonly hash = createHash('sha256');
  private head: Buffer[] = [];
  private headBytes = 0;
  private sniffed = false;

  constructor(
    private readonly filename: string,
    private readonly maxBytes: number,
  ) {
    super();
  }

  digest(): string {
    return this.hash.digest('hex');
  }

  private async sniff(complete: boolean): Promise<void> {
    this.sniffed = true;
    const head = Buffer.concat(this.head);
    const held = this.head;
    this.head = [];
    const result = await sniffType(head.subarray(0, SNIFF_BYTES), this.filename, complete);
    if (!result.ok) throw fileTypeNotAllowed(this.filename, result.reason);
    this.mime = result.mime;
    for (const chunk of held) this.push(chunk);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return callback(fileTooLarge(this.filename, this.maxBytes));
    this.hash.update(chunk);
    if (this.sniffed) {
      this.push(chunk);
      return callback();
    }
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes < SNIFF_BYTES) return callback();
    this.sniff(false).then(() => callback(), callback);
  }

  override _flush(callback: (error?: Error | null) => void): void {
    if (this.size === 0) return callback(fileEmpty(this.filename));
    if (this.sniffed) return callback();
    this.sniff(true).then(() => callback(), callback);
  }
}

/** Streams `source` to `target`, never holding more than the sniff window in memory. */
export async function writeGuarded(source: Readable, target: string, options: { filename: string; maxBytes: number }): Promise<WrittenFile> {
  const guard = new GuardStream(options.filename, options.maxBytes);
  await pipeline(source, guard, createWriteStream(target, { flags: 'wx' }));
  return { size: guard.size, hash: guard.digest(), mime: guard.mime };
}
