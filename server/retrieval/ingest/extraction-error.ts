/** Why a file could not be indexed, in words shown to the user (the file's `failed` reason). */
export class IngestError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'IngestError';
  }
}
