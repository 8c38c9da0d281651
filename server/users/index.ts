export { createUsersRepo, type UsersRepo, type UserRow, type DbTransaction } from './users.repo';
export { presentUser, presentListItem, isPrimaryAdmin, safeImageUrl } from './users.present';
export { createUsersService, profileImageUrl, type UsersService, type SharedChatOwnerResolver } from './users.service';
export type { UserDeletionHook, BeforeUserDeletionHook, AfterUserDeletionHook } from './user-deletion';
export { usersRoutes, defaultAvatarRoutes, appIconRoutes } from './users.routes';
export { createProfileImageStore, type ProfileImageStore } from './profile-images';
export { defaultAvatarPng } from './default-avatar';
export { appIconPng } from './app-icon';
export { announcePendingSignups, PENDING_SIGNUPS_EVENT } from './pending-signups';
