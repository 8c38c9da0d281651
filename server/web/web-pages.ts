import { Readable } from 'node:stream';
import type { WebPageFile } from '../contracts/web';
import type { FileRow, FilesService } from '../files';
import type { KnowledgeService } from '../knowledge';
import type { PageText } from './extract/page-extract';
import type { WebCaller } from './web.service';

/** What saving pages needs: files to hold their text, knowledge to index them. */
export interface WebPagesDeps {
  files: Pick<FilesService, 'create' | 'delete'>;
  knowledge: Pick<KnowledgeService, 'addFile' | 'indexFile' | 'get'>;
}

/** A file name for a page: its title (or host), safe on every OS, as Markdown. */
export function pageFileName(page: PageText): string {
  let base = page.title.trim();
  if (!base) {
    try {
      base = new URL(page.url).hostname;
    } catch {
      base = 'page';
    }
  }
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const safe = base.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 120) || 'page';
  return `${safe}.md`;
}

/** The stored text of a page: its title, where it came from, its text. */
export function pageDocument(page: PageText): string {
  return `# ${page.title || page.url}\n\nSource: ${page.url}\n\n${page.text}\n`;
}

/** The page as the API shows it (Open WebUI's `file` of process/web). */
export function presentPage(page: PageText, file?: FileRow): WebPageFile {
  return { id: file?.id ?? '', data: { content: page.text }, meta: { name: page.title || page.url, source: page.url, title: page.title } };
}

/**
 * Saves a read page as a file of the caller's (Markdown, with its source URL) and indexes it:
 * into the knowledge base `collectionName` when given (the caller must be able to write to it;
 * 404/403 otherwise, and the file is removed again; indexing goes on in the background), else as
 * a collection of its own (`file-<id>`, resolved once indexed). Answers the file and the collection.
 */
export async function savePage(deps: WebPagesDeps, caller: WebCaller, page: PageText, collectionName?: string): Promise<{ file: FileRow; collection: string }> {
  const file = await deps.files.create({
    userId: caller.id,
    filename: pageFileName(page),
    stream: Readable.from([Buffer.from(pageDocument(page))]),
    purpose: 'web',
    meta: { source: page.url, title: page.title },
  });
  if (collectionName) {
    try {
      await deps.knowledge.addFile(caller, collectionName, file.id);
    } catch (error) {
      await deps.files.delete(file);
      throw error;
    }
    return { file, collection: collectionName };
  }
  await deps.knowledge.indexFile(caller, file);
  return { file, collection: `file-${file.id}` };
}
