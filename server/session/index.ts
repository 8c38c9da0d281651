export type { AuthContext, AuthFailure, SessionUser } from './auth-context';
export { authFailureError, authOf, noteAuthFailure, requireAdmin, requireSession, requireUser, sessionGuards } from './guards';
