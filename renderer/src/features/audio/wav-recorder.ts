/** Whisper's rate: the recording is resampled to it in the browser, so the upload is small WAV. */
const RATE = 16_000;

/** Why the microphone cannot be used, for the message shown. */
export type MicProblem = 'insecure' | 'denied' | 'no-device' | 'unsupported';

/** A microphone problem with its kind. */
export class MicError extends Error {
  constructor(readonly problem: MicProblem) {
    super(problem);
  }
}

/** A running recording: its loudness for the meter, and stop → WAV. */
export interface Recording {
  /** Loudness of the last block, 0–1. */
  level(): number;
  /** Stops and returns 16 kHz mono 16-bit WAV. */
  stop(): Promise<Blob>;
  /** Stops and drops the audio. */
  cancel(): void;
}

function wavOf(samples: Float32Array): Blob {
  const out = new DataView(new ArrayBuffer(44 + samples.length * 2));
  const text = (at: number, s: string) => [...s].forEach((c, i) => out.setUint8(at + i, c.charCodeAt(0)));
  text(0, 'RIFF');
  out.setUint32(4, 36 + samples.length * 2, true);
  text(8, 'WAVEfmt ');
  out.setUint32(16, 16, true);
  out.setUint16(20, 1, true);
  out.setUint16(22, 1, true);
  out.setUint32(24, RATE, true);
  out.setUint32(28, RATE * 2, true);
  out.setUint16(32, 2, true);
  out.setUint16(34, 16, true);
  text(36, 'data');
  out.setUint32(40, samples.length * 2, true);
  samples.forEach((s, i) => out.setInt16(44 + i * 2, Math.max(-1, Math.min(1, s)) * 0x7fff, true));
  return new Blob([out.buffer], { type: 'audio/wav' });
}

/**
 * Records the microphone as 16 kHz mono WAV in the browser (an AudioContext at 16 kHz resamples;
 * no codec, so the service needs no decoder for it). The microphone needs a secure context: on
 * plain HTTP from another machine the browser hides it, which is reported as `insecure`.
 */
export async function startRecording(): Promise<Recording> {
  // eslint-disable-next-line no-restricted-syntax -- problem codes, shown through the catalogs
  if (!window.isSecureContext) throw new MicError('insecure');
  // eslint-disable-next-line no-restricted-syntax -- problem codes, shown through the catalogs
  if (!navigator.mediaDevices?.getUserMedia) throw new MicError('unsupported');
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true } });
  } catch (error) {
    const name = (error as DOMException).name;
    throw new MicError(name === 'NotAllowedError' || name === 'SecurityError' ? 'denied' : name === 'NotFoundError' ? 'no-device' : 'unsupported');
  }
  const context = new AudioContext({ sampleRate: RATE });
  const source = context.createMediaStreamSource(stream);
  // ScriptProcessor is deprecated but runs everywhere without a separate worklet file.
  const processor = context.createScriptProcessor(4096, 1, 1);
  const blocks: Float32Array[] = [];
  let level = 0;
  processor.onaudioprocess = (event) => {
    const data = event.inputBuffer.getChannelData(0);
    blocks.push(new Float32Array(data));
    let sum = 0;
    for (const s of data) sum += s * s;
    level = Math.min(1, Math.sqrt(sum / data.length) * 4);
  };
  source.connect(processor);
  processor.connect(context.destination);
  const close = () => {
    processor.disconnect();
    source.disconnect();
    stream.getTracks().forEach((track) => track.stop());
    void context.close();
  };
  return {
    level: () => level,
    async stop() {
      close();
      const total = blocks.reduce((n, b) => n + b.length, 0);
      const samples = new Float32Array(total);
      let at = 0;
      for (const block of blocks) {
        samples.set(block, at);
        at += block.length;
      }
      return wavOf(samples);
    },
    cancel: close,
  };
}
