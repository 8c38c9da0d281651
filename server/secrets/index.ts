export type { SecretStore } from './secret-store';
export { memorySecretStore } from './secret-store';
export { fileSecretStore } from './file-store';
export { keychainSecretStore, probeKeychain } from './keychain-store';
export { selectSecretStore, keychainService, readStoreChoice, INSTALL_ID } from './select-store';
