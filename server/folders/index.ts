export { createFoldersRepo, type FoldersRepo, type FolderRow } from './folders.repo';
export { createFoldersService, presentFolder, type FoldersService } from './folders.service';
export { foldersRoutes } from './folders.routes';
