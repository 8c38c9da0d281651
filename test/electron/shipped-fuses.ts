import { FuseV1Options } from '@electron/fuses';

type FuseName = keyof typeof FuseV1Options;

/**
 * The Electron fuses Parley's installers ship with, by @electron/fuses name: it cannot be run as
 * plain Node, take NODE_OPTIONS or --inspect, or load an app.asar other than the checked one;
 * cookies are encrypted. The one list that electron-builder.yml (`electronFuses`), the fuse
 * reader's tests and the packaged-app smoke test are checked against.
 */
export const SHIPPED_FUSES = {
  RunAsNode: false,
  EnableCookieEncryption: true,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  EnableEmbeddedAsarIntegrityValidation: true,
  OnlyLoadAppFromAsar: true,
  GrantFileProtocolExtraPrivileges: false,
} as const satisfies Partial<Record<FuseName, boolean>>;

const entries = () => Object.entries(SHIPPED_FUSES) as Array<[FuseName, boolean]>;

/** The list as electron-builder's `electronFuses` option (runAsNode, enableCookieEncryption, …). */
export function builderFuses(): Record<string, boolean> {
  return Object.fromEntries(entries().map(([name, on]) => [name[0]!.toLowerCase() + name.slice(1), on]));
}

/** The list as @electron/fuses `flipFuses` options (by fuse index). */
export function flipOptions(): Partial<Record<FuseV1Options, boolean>> {
  return Object.fromEntries(entries().map(([name, on]) => [FuseV1Options[name], on]));
}
