import type { DecodedAudio } from './wav';

/** Whisper's input rate. */
export const WHISPER_RATE = 16_000;

/**
 * Mixes every channel down to mono and resamples to `rate`: a moving-average low-pass of the
 * ratio's width (so higher frequencies do not fold into speech), then linear interpolation.
 * Plenty for speech recognition, which looks at 80 mel bands up to 8 kHz.
 */
export function toMono(audio: DecodedAudio, rate = WHISPER_RATE): Float32Array {
  const { channels, sampleRate } = audio;
  const length = channels[0]?.length ?? 0;
  const mono = new Float32Array(length);
  for (const channel of channels) for (let i = 0; i < length; i++) mono[i]! += channel[i]! / channels.length;
  if (sampleRate === rate) return mono;
  const ratio = sampleRate / rate;
  const source = ratio > 1 ? lowPass(mono, Math.round(ratio)) : mono;
  const out = new Float32Array(Math.floor(length / ratio));
  for (let i = 0; i < out.length; i++) {
    const at = i * ratio;
    const left = Math.floor(at);
    const right = Math.min(left + 1, length - 1);
    const t = at - left;
    out[i] = source[left]! * (1 - t) + source[right]! * t;
  }
  return out;
}

function lowPass(samples: Float32Array, width: number): Float32Array {
  if (width <= 1) return samples;
  const out = new Float32Array(samples.length);
  let sum = 0;
  for (let i = 0; i < samples.length; i++) {
    sum += samples[i]!;
    if (i >= width) sum -= samples[i - width]!;
    out[i] = sum / Math.min(i + 1, width);
  }
  return out;
}

/** Float samples in [-1, 1] as signed 16-bit PCM (what whisper.cpp's binding takes). */
export function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]!));
    out[i] = s < 0 ? s * 32768 : s * 32767;
  }
  return out;
}
