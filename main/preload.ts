// Runs sandboxed before the UI: it may only use `electron`'s renderer modules. It exposes the
// DesktopBridge and nothing else (no ipcRenderer, no Node) to the page.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { DesktopBridge, DesktopLanState, DesktopNotice } from '../server/contracts/desktop';
import { IPC } from './ipc-channels';

const bridge: DesktopBridge = {
  appVersion: () => ipcRenderer.invoke(IPC.appVersion) as Promise<string>,
  lanSharing: () => ipcRenderer.invoke(IPC.lanSharing) as Promise<DesktopLanState>,
  onLanSharingChange(listener) {
    const relay = (_event: IpcRendererEvent, state: DesktopLanState) => listener(state);
    ipcRenderer.on(IPC.lanSharingChanged, relay);
    return () => {
      ipcRenderer.removeListener(IPC.lanSharingChanged, relay);
    };
  },
  openExternal: (url) => ipcRenderer.invoke(IPC.openExternal, String(url)) as Promise<boolean>,
  setLanguage: (code) => ipcRenderer.invoke(IPC.language, String(code)) as Promise<void>,
  notify: (notice: DesktopNotice) => ipcRenderer.invoke(IPC.notify, notice) as Promise<void>,
  onOpenPath(listener) {
    const relay = (_event: IpcRendererEvent, path: string) => listener(String(path));
    ipcRenderer.on(IPC.openPath, relay);
    return () => {
      ipcRenderer.removeListener(IPC.openPath, relay);
    };
  },
};

contextBridge.exposeInMainWorld('parley', bridge);
