/** IPC channel names shared by the main process and the preload (no imports: the preload bundles this). */
export const IPC = {
  appVersion: 'parley:app-version',
  lanSharing: 'parley:lan-sharing',
  lanSharingChanged: 'parley:lan-sharing-changed',
  openExternal: 'parley:open-external',
  language: 'parley:language',
  notify: 'parley:notify',
  openPath: 'parley:open-path',
} as const;
