import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { RunningServer, StartServerOptions } from '../server';
import { chooseSecretStore, isLoopbackPortFree, startHost } from './host';
import { recordingLog } from './testing/fake-electron';

describe('keychain store selection', () => {
  it('keeps secrets in the OS keychain on macOS and Windows', () => {
    expect(chooseSecretStore('darwin', {})).toBe('keychain');
    expect(chooseSecretStore('win32', {})).toBe('keychain');
  });

  it('uses the keychain on Linux when a Secret Service answers, else the encrypted file', () => {
    expect(chooseSecretStore('linux', {})).toBe('auto');
  });

  it('follows PARLEY_SECRET_STORE and ignores values it does not know', () => {
    expect(chooseSecretStore('darwin', { PARLEY_SECRET_STORE: 'file' })).toBe('file');
    expect(chooseSecretStore('linux', { PARLEY_SECRET_STORE: 'keychain' })).toBe('keychain');
    expect(chooseSecretStore('win32', { PARLEY_SECRET_STORE: 'plaintext' })).toBe('keychain');
  });
});

describe('service host', () => {
  const fakeStart = (calls: StartServerOptions[]) => async (options: StartServerOptions) => {
    calls.push(options);
    return { url: `http://127.0.0.1:${options.port}`, port: options.port } as unknown as RunningServer;
  };

  it('starts on loopback only, in the given data dir, with the chosen secret store', async () => {
    const calls: StartServerOptions[] = [];
    await startHost({ startServer: fakeStart(calls), dataDir: '/data', secretStore: 'keychain', log: recordingLog() });
    expect(calls).toEqual([{ host: '127.0.0.1', port: 0, dataDir: '/data', secretStore: 'keychain', ownsProcess: true, desktopOwner: 'Owner' }]);
  });

  it('reuses the remembered port so the UI keeps its sign-in', async () => {
    const calls: StartServerOptions[] = [];
    await startHost({ startServer: fakeStart(calls), dataDir: '/d', secretStore: 'auto', rememberedPort: 45123, isPortFree: async () => true, log: recordingLog() });
    expect(calls[0]?.port).toBe(45123);
  });

  it('picks a free port when the remembered one is taken by another program', async () => {
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const taken = (squatter.address() as AddressInfo).port;
    try {
      expect(await isLoopbackPortFree(taken)).toBe(false);
      const calls: StartServerOptions[] = [];
      const log = recordingLog();
      await startHost({ startServer: fakeStart(calls), dataDir: '/d', secretStore: 'auto', rememberedPort: taken, log });
      expect(calls[0]?.port).toBe(0);
      expect(log.lines.join('\n')).toContain(`port ${taken} is taken`);
    } finally {
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
    }
    expect(await isLoopbackPortFree(taken)).toBe(true);
  });
});
