import { defineSection, type ConfigService } from '../config';
import { AudioConfig, MASKED_KEY, SttConfig, TtsConfig, type AudioConfigUpdate } from '../contracts/audio';
import type { SecretStore } from '../secrets';

type Stored = { tts: Omit<TtsConfig, 'OPENAI_API_KEY'>; stt: Omit<SttConfig, 'OPENAI_API_KEY'> };

/** Audio settings as stored (section `audio`); the two provider keys live in the secret store. */
export const AudioSection = defineSection<Stored>('audio', AudioConfig.extend({ tts: TtsConfig.omit({ OPENAI_API_KEY: true }), stt: SttConfig.omit({ OPENAI_API_KEY: true }) }), {
  tts: { ENGINE: '', MODEL: 'tts-1', VOICE: '', OPENAI_API_BASE_URL: 'https://api.openai.com/v1', SPLIT_ON: 'punctuation' },
  stt: { ENGINE: '', MODEL: '', OPENAI_API_BASE_URL: 'https://api.openai.com/v1', MAX_FILE_SIZE_MB: 25, MAX_DURATION_SECONDS: 600, KEEP_AUDIO: false },
});

const SECRET = { tts: 'audio:tts:openai', stt: 'audio:stt:openai' } as const;

/** The settings with the real keys, for the engines (never for the wire). */
export type ResolvedAudioConfig = AudioConfig;

/**
 * Audio settings in Open WebUI's shape: the engines and their options in the config domain,
 * the provider keys in the secret store, answered masked. An update that sends the mask back
 * keeps the stored key; an empty string removes it.
 */
export function createAudioSettings(config: ConfigService, secrets: SecretStore) {
  async function resolved(): Promise<ResolvedAudioConfig> {
    const stored = await config.get(AudioSection);
    return {
      tts: { ...stored.tts, OPENAI_API_KEY: (await secrets.get(SECRET.tts)) ?? '' },
      stt: { ...stored.stt, OPENAI_API_KEY: (await secrets.get(SECRET.stt)) ?? '' },
    };
  }
  const mask = (key: string) => (key ? MASKED_KEY : '');
  async function masked(): Promise<AudioConfig> {
    const all = await resolved();
    return { tts: { ...all.tts, OPENAI_API_KEY: mask(all.tts.OPENAI_API_KEY) }, stt: { ...all.stt, OPENAI_API_KEY: mask(all.stt.OPENAI_API_KEY) } };
  }
  async function writeKey(name: string, key: string | undefined): Promise<void> {
    if (key === undefined || key === MASKED_KEY) return;
    if (key) await secrets.set(name, key);
    else await secrets.delete(name);
  }
  return {
    resolved,
    /** The settings as an admin sees them (keys masked). */
    get: masked,
    async update(patch: AudioConfigUpdate): Promise<AudioConfig> {
      const { OPENAI_API_KEY: ttsKey, ...tts } = patch.tts ?? {};
      const { OPENAI_API_KEY: sttKey, ...stt } = patch.stt ?? {};
      await writeKey(SECRET.tts, ttsKey);
      await writeKey(SECRET.stt, sttKey);
      const current = await config.get(AudioSection);
      await config.set(AudioSection, { tts: { ...current.tts, ...tts }, stt: { ...current.stt, ...stt } });
      return masked();
    },
  };
}
export type AudioSettings = ReturnType<typeof createAudioSettings>;
