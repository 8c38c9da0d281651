import { AuthConfig, DEFAULT_AUTH_CONFIG } from '../contracts/auth';
import { defineSection } from '../config';

/** The auth admin settings section. */
export const AuthConfigSection = defineSection<AuthConfig>('auth', AuthConfig, DEFAULT_AUTH_CONFIG);
