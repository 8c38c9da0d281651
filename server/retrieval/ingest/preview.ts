import { extract, type SourceFile } from './extract';

/** A file whose text is previewed: at most `maxChars` of it, reading at most `readBytes` of text-like files. */
export interface PreviewJob {
  file: SourceFile;
  maxChars: number;
  readBytes: number;
}

/** The previewed text (null when it could not be extracted, with the reason). */
export interface PreviewResult {
  text: string | null;
  error?: string;
  truncated: boolean;
}

/** The beginning of a file's text as extraction sees it now (runs on the ingestion worker). */
export async function previewText(job: PreviewJob): Promise<PreviewResult> {
  try {
    const { text, partial } = await extract(job.file, { readBytes: job.readBytes });
    return { text: text.slice(0, job.maxChars), truncated: partial === true || text.length > job.maxChars };
  } catch (error) {
    return { text: null, error: error instanceof Error ? error.message : 'The text could not be extracted', truncated: false };
  }
}
