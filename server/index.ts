/** The public surface of the service: no side effects on import. */
export { startServer, type RunningServer, type StartServerOptions } from './start';
export { createApp } from './app';
export type { StartOptions, BootConfig } from './platform/env';
export type { Services } from './services';
export { fileSecretStore, keychainSecretStore, memorySecretStore, type SecretStore } from './secrets';
export { qrPngDataUrl } from './lan';
export { adoptLegacyDataDir } from './platform/paths';
export { loadExports } from './platform/library-exports';
export { restoreBackup } from './backup';
export { isUpgradeError, UpgradeError } from './upgrades';
export type { ChildChannel, ProcessSpec, ProcessStarter } from './platform/process-starter';
