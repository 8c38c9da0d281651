import type { BuiltinModelRow } from './builtin.repo';
import { readGgufInfo } from './gguf-info';
import { isWhisperFile, readWhisperFile, WhisperFileError } from './whisper-file';

/** How a file is tried before it is listed: a throw-away chat runtime, or the speech engine for whisper files. */
export interface ModelProbes {
  probe: (file: string) => Promise<void>;
  speech?: { probe: (file: string) => Promise<void> };
}

/** Reads a file's header and loads it once: GGUF in the llama runtime, whisper files on the speech engine. */
export async function inspectModelFile(file: string, size: number, deps: ModelProbes): Promise<Pick<BuiltinModelRow, 'architecture' | 'context_length' | 'quantization' | 'ram_estimate' | 'kind'> & { name: string | null }> {
  if (await isWhisperFile(file)) {
    if (!deps.speech) throw new WhisperFileError('transcription models are not available in this service');
    const info = await readWhisperFile(file);
    try {
      await deps.speech.probe(file);
    } catch (error) {
      throw new WhisperFileError((error as Error).message);
    }
    return { name: `Whisper ${info.size}${info.multilingual ? '' : ' (English)'}`, architecture: 'whisper', context_length: null, quantization: info.quantization, ram_estimate: info.ram_estimate, kind: 'transcription' };
  }
  const info = await readGgufInfo(file, size);
  await deps.probe(file);
  return info;
}
