import { z } from 'zod';
import { Note, NoteAssistRequest, NoteAssistResult, NoteForm, NoteListQuery, NoteSearchQuery, NoteSearchResult, NoteUpdateForm, type NoteAssistAction } from '../contracts/notes';
import { contentDisposition, uniqueEntryNames } from '../platform/http/download';
import { route, type RouteUser, type Routes } from '../platform/http/route';
import { notesForbidden, type NoteCaller, type NotesService } from './notes.service';
import { loadYazl } from '../platform/lazy-libraries';

/** What the notes routes call: the notes service, and the task model for `assist`. */
export interface NotesRoutesDeps {
  notes: NotesService;
  assist(caller: NoteCaller, action: NoteAssistAction, content: string, model?: string): Promise<string>;
}

const GUARD = { guard: 'user', permission: 'features.notes', refused: notesForbidden } as const;

/** Notes on Open WebUI's paths, plus Markdown export and the writing assistant. Mounted at `/api/v1/notes`. */
export function notesRoutes(deps: NotesRoutesDeps): Routes {
  const { notes } = deps;
  // ENABLE_NOTES is checked after the permission and before anything is read.
  const enabled = ({ user }: { user: RouteUser }) => notes.mayUse(user);
  return [
    route({ method: 'get', path: '/', ...GUARD, authorize: enabled, query: NoteListQuery, summary: 'Notes the caller may read, newest first (60 a page with `page`)', response: z.array(Note) }, ({ user, query }) =>
      notes.list(user, query.page),
    ),
    route(
      { method: 'get', path: '/search', ...GUARD, authorize: enabled, query: NoteSearchQuery, summary: 'Full-text search over the notes the caller may read (each note in its language)', response: NoteSearchResult },
      ({ user, query }) => notes.search(user, query),
    ),
    route({ method: 'post', path: '/create', ...GUARD, authorize: enabled, body: NoteForm, summary: 'Write a note', response: Note }, ({ user, body }) => notes.create(user, body)),
    route(
      { method: 'post', path: '/assist', ...GUARD, authorize: enabled, body: NoteAssistRequest, summary: "Summarize or improve a note's text with the task model", response: NoteAssistResult },
      async ({ user, body }) => ({ content: await deps.assist(user, body.action, body.content, body.model) }),
    ),
    route({ method: 'get', path: '/export', ...GUARD, authorize: enabled, summary: "The caller's own notes as Markdown files in a ZIP", produces: 'zip' }, async ({ user, res }) => {
      const mine = await notes.ownMarkdown(user);
      const { ZipFile } = await loadYazl();
      const zip = new ZipFile();
      const names = uniqueEntryNames(mine.map((n) => `${n.title || 'Untitled'}.md`));
      mine.forEach((note, i) => zip.addBuffer(Buffer.from(note.text), names[i]!, { mtime: new Date(note.updatedAt * 1000) }));
      zip.end();
      res.set({ 'content-type': 'application/zip', 'content-disposition': contentDisposition('attachment', 'notes.zip') });
      zip.outputStream.on('error', () => res.destroy());
      zip.outputStream.pipe(res);
    }),
    route({ method: 'get', path: '/:id', ...GUARD, authorize: enabled, summary: 'A note, with whether the caller may change it', response: Note }, ({ user, params }) => notes.get(user, params.id)),
    route({ method: 'get', path: '/:id/export', ...GUARD, authorize: enabled, summary: 'A note as a Markdown file', produces: 'binary' }, async ({ user, params, res }) => {
      const { name, text } = await notes.markdown(user, params.id);
      res.set({ 'content-type': 'text/markdown; charset=utf-8', 'content-disposition': contentDisposition('attachment', `${name}.md`) });
      res.send(text);
    }),
    route(
      {
        method: 'post',
        path: '/:id/update',
        ...GUARD,
        // A note the caller cannot read is 404 (and one they only read 403) before the body is validated.
        authorize: async ({ user, params }) => {
          await notes.mayUse(user);
          await notes.assertWritable(user, params.id);
        },
        body: NoteUpdateForm,
        summary: 'Save a note; with `version`, a save made from an older version is refused (409 with the newer note)',
        response: Note,
      },
      ({ user, params, body }) => notes.update(user, params.id, body),
    ),
    route({ method: 'delete', path: '/:id/delete', ...GUARD, authorize: enabled, summary: 'Delete a note', response: z.boolean() }, async ({ user, params }) => {
      await notes.delete(user, params.id);
      return true;
    }),
  ];
}
