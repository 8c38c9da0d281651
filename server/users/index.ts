export { createUsersRepo, type UsersRepo, type UserRow } from './users.repo';
export { presentUser, isPrimaryAdmin } from './users.present';
