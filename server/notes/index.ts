export { createNotes, type Notes, type NotesModuleDeps } from './notes.module';
export { notesRoutes, type NotesRoutesDeps } from './notes.routes';
export type { NotesService, NoteCaller } from './notes.service';
