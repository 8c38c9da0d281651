import os from 'node:os';
import type { RecommendedModel } from '../contracts/builtin';

const MB = 1024 * 1024;

/**
 * A short curated list of small models that run on an ordinary laptop's CPU. Nothing is bundled:
 * the UI shows this list when the machine is online and downloads what the admin picks. Entries
 * with a SHA-256 are checked when downloaded, and recognised when imported from a file instead
 * (an office without internet copies the file in from a USB stick).
 * Sizes are those of the files on Hugging Face (rounded); RAM adds a 4k-token KV cache.
 */
export const RECOMMENDED_MODELS: readonly RecommendedModel[] = [
  {
    name: 'Qwen2.5 0.5B Instruct (Q4_K_M)',
    url: 'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf',
    size: 491 * MB,
    ram: 900 * MB,
    kind: 'chat',
    license: 'Apache-2.0',
    description: 'Tiny and quick: short answers, summaries and titles on any machine.',
  },
  {
    name: 'Llama 3.2 1B Instruct (Q4_K_M)',
    url: 'https://huggingface.co/bartowski/Llama-3.2-1B-Instruct-GGUF/resolve/main/Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    size: 808 * MB,
    ram: 1400 * MB,
    kind: 'chat',
    license: 'Llama 3.2 Community License',
    description: 'A capable small assistant with a 128k-token context; multilingual.',
  },
  {
    name: 'Qwen2.5 1.5B Instruct (Q4_K_M)',
    url: 'https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf',
    size: 1117 * MB,
    ram: 1800 * MB,
    kind: 'chat',
    license: 'Apache-2.0',
    description: 'Better reasoning and tool calling; wants 8 GB of RAM.',
  },
  {
    name: 'nomic-embed-text v1.5 (Q8_0)',
    url: 'https://huggingface.co/nomic-ai/nomic-embed-text-v1.5-GGUF/resolve/main/nomic-embed-text-v1.5.Q8_0.gguf',
    size: 146 * MB,
    ram: 300 * MB,
    kind: 'embedding',
    license: 'Apache-2.0',
    description: 'Embeddings for knowledge bases (RAG), 768 dimensions.',
  },
  {
    // Pinned: 634,553,760 bytes, SHA-256 as published for gpustack/bge-m3-GGUF (BAAI/bge-m3 converted by llama.cpp).
    name: 'bge-m3 multilingual (Q8_0)',
    url: 'https://huggingface.co/gpustack/bge-m3-GGUF/resolve/main/bge-m3-Q8_0.gguf',
    sha256: '950f4a8e5e19477a6d3c26d2f162233c20002c601f75e4b002e3239997821167',
    size: 605 * MB,
    ram: 800 * MB,
    kind: 'embedding',
    license: 'MIT',
    description: 'Embeddings in 100+ languages (one base can mix French, German, Japanese…), 1024 dimensions, 8k-token passages.',
  },
  {
    // Pinned: 635,676,416 bytes, SHA-256 as published for gpustack/bge-reranker-v2-m3-GGUF.
    name: 'bge-reranker-v2-m3 multilingual (Q8_0)',
    url: 'https://huggingface.co/gpustack/bge-reranker-v2-m3-GGUF/resolve/main/bge-reranker-v2-m3-Q8_0.gguf',
    sha256: 'a43c7c9b11a4c1517e5bf95151960e1621d1b72f7a493364b01e386cf1aaa1d3',
    size: 606 * MB,
    ram: 800 * MB,
    kind: 'reranker',
    license: 'Apache-2.0',
    description: 'Reranks knowledge search results on this computer (Documents → reranking engine "built-in"), in 100+ languages.',
  },
  {
    name: 'bge-small-en v1.5 (Q8_0)',
    url: 'https://huggingface.co/CompendiumLabs/bge-small-en-v1.5-gguf/resolve/main/bge-small-en-v1.5-q8_0.gguf',
    size: 36 * MB,
    ram: 120 * MB,
    kind: 'embedding',
    license: 'MIT',
    description: 'Very small English embedding model, 384 dimensions.',
  },
  // whisper.cpp's conversions of OpenAI's Whisper (MIT), multilingual; SHA-256 as published for each file.
  {
    name: 'Whisper tiny (multilingual)',
    url: 'https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-tiny.bin',
    size: 75 * MB,
    ram: 390 * MB,
    kind: 'transcription',
    license: 'MIT',
    description: 'Speech-to-text for the microphone: fast on any CPU, good for clear speech.',
    sha256: 'be07e048e1e599ad46341c8d2a135645097a538221678b7acdd1b1919c6e1b21',
  },
  {
    name: 'Whisper base (multilingual)',
    url: 'https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-base.bin',
    size: 142 * MB,
    ram: 500 * MB,
    kind: 'transcription',
    license: 'MIT',
    description: 'Speech-to-text with fewer mistakes than tiny; still quick on a laptop.',
    sha256: '60ed5bc3dd14eea856493d334349b405782ddcaf0028d4b5df4088345fba2efe',
  },
  {
    name: 'Whisper small (multilingual)',
    url: 'https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-small.bin',
    size: 466 * MB,
    ram: 1000 * MB,
    kind: 'transcription',
    license: 'MIT',
    description: 'Accurate speech-to-text in many languages; wants a recent CPU.',
    sha256: '1be3a9b2063867b937e64e2ec7483364a79917e157fa98c5d94b5c1fffea987b',
  },
];

/** The list with `fits` set: a model fits when it needs at most 60% of the machine's memory. */
export function recommendedFor(totalMemory: number = os.totalmem()): RecommendedModel[] {
  return RECOMMENDED_MODELS.map((model) => ({ ...model, fits: model.ram <= totalMemory * 0.6 }));
}
