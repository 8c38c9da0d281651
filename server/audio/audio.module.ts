import path from 'node:path';
import type { ModelLibrary } from '../builtin';
import type { ConfigService } from '../config';
import type { Logger } from '../platform/log';
import type { SecretStore } from '../secrets';
import { createAudioService } from './audio.service';
import { createAudioSettings } from './audio-settings';
import type { LocalStt } from './stt/local-stt';

/** The audio domain: settings, engines and the service the routes call. */
export function createAudio(deps: { config: ConfigService; secrets: SecretStore; library: Pick<ModelLibrary, 'ready'>; localStt: LocalStt; dataDir: string; log: Logger }) {
  const settings = createAudioSettings(deps.config, deps.secrets);
  const service = createAudioService({ settings, config: deps.config, library: deps.library, localStt: deps.localStt, dir: path.join(deps.dataDir, 'audio'), log: deps.log });
  return { settings, service };
}
export type Audio = ReturnType<typeof createAudio>;
