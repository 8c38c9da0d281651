export { createAuthService, type AuthService } from './auth.service';
export { createAuthRepo, type AuthRepo } from './auth.repo';
export { authenticate } from './authenticate';
export { clearSessionCookie, setSessionCookie } from './session-cookie';
export { authRoutes } from './auth.routes';
export { AuthConfigSection } from './auth-config';
export { createTokenService, loadJwtKey, type TokenService } from './tokens';
export { createSigninLimiter } from './signin-limiter';
export { readCredential } from './credentials';
