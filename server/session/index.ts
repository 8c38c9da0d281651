export type { AuthContext, AuthFailure, SessionUser } from './auth-context';
export { authFailureError, noteAuthFailure, requireAdmin, requireSession, requireUser, sessionGuards } from './guards';
