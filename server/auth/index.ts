export type { AuthContext } from './auth-context';
export { createAuthService, type AuthService } from './auth.service';
export { createAuthRepo, type AuthRepo } from './auth.repo';
export { authenticate, authOf, requireAdmin, requireSession, requireUser } from './authenticate';
export { authRoutes } from './auth.routes';
export { AuthConfigSection } from './auth-config';
export { createTokenService, loadJwtKey, type TokenService } from './tokens';
export { createSigninLimiter } from './signin-limiter';
export { readCredential } from './credentials';
