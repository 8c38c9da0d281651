import type { UserSettings } from '../../../../server/contracts/users';

/** The account's voice choices, in Open WebUI's settings shape (`speechAutoSend`, `audio.stt.engine`). */
export interface VoiceChoices {
  /** Send the message as soon as the dictation is transcribed. */
  autoSend: boolean;
  /** Use the browser's own recognition instead of the service's engine. */
  browserRecognition: boolean;
}

/** Reads the voice choices from the account's UI settings. */
export function voiceChoicesOf(settings: UserSettings): VoiceChoices {
  const s = settings as { speechAutoSend?: unknown; audio?: { stt?: { engine?: unknown } } };
  return { autoSend: s.speechAutoSend === true, browserRecognition: s.audio?.stt?.engine === 'web' };
}

/** The settings patch that stores voice choices (other audio settings kept). */
export function voiceSettingsPatch(settings: UserSettings, next: Partial<VoiceChoices>): Partial<UserSettings> {
  const current = voiceChoicesOf(settings);
  const audio = ((settings as { audio?: Record<string, unknown> }).audio ?? {}) as Record<string, unknown>;
  const merged = { ...current, ...next };
  return { speechAutoSend: merged.autoSend, audio: { ...audio, stt: { ...((audio.stt as object | undefined) ?? {}), engine: merged.browserRecognition ? 'web' : '' } } };
}
