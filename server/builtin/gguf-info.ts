import type * as GgufModule from '@huggingface/gguf';
import { loadExports } from '../platform/library-exports';
import type { BuiltinModelKind } from '../contracts/builtin';

type Gguf = Pick<typeof GgufModule, 'gguf' | 'GGMLFileQuantizationType'>;
let ggufModule: Promise<Gguf> | undefined;
// @huggingface/gguf (and the task tables it carries) loads when a model file is first read, not at start-up.
const loadGguf = () => (ggufModule ??= loadExports(import('@huggingface/gguf'), '@huggingface/gguf', 'gguf', 'GGMLFileQuantizationType'));

/** What the GGUF header says about a model, as the library shows it. */
export interface GgufInfo {
  name: string | null;
  architecture: string;
  context_length: number;
  quantization: string | null;
  /** Rough memory to run it: the weights plus a KV cache for min(context, 4096) tokens. */
  ram_estimate: number;
  kind: BuiltinModelKind;
  has_chat_template: boolean;
}

/** The file is not a GGUF llama.cpp could run; `message` says why, for the person who gave it. */
export class GgufError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GgufError';
  }
}

/** Architectures that only make embeddings. */
const EMBEDDING_ARCHITECTURES = new Set(['bert', 'nomic-bert', 'nomic-bert-moe', 'jina-bert-v2', 'jina-bert-v3', 't5encoder', 'modern-bert', 'neo-bert']);

/** llama.cpp's LLAMA_POOLING_TYPE_RANK, and the tensors of a reranker's classification head. */
const RANK_POOLING = 4;
const RANKING_TENSORS = new Set(['cls.weight', 'cls.output.weight']);

const num = (value: unknown): number | undefined => {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value) && value.length > 0) return num(value[0]);
  return undefined;
};

/**
 * Reads a GGUF file's header (never its weights) with `@huggingface/gguf` and checks the keys
 * llama.cpp needs before it may be given the file. Throws GgufError for anything else.
 */
export async function readGgufInfo(file: string, fileSize: number): Promise<GgufInfo> {
  const { gguf, GGMLFileQuantizationType } = await loadGguf();
  let header;
  try {
    header = await gguf(file, { allowLocalFile: true });
  } catch (error) {
    throw new GgufError(`not a GGUF model file (${(error as Error).message})`);
  }
  const meta = header.metadata as Record<string, unknown>;
  const architecture = meta['general.architecture'];
  if (typeof architecture !== 'string' || architecture === '') throw new GgufError('the GGUF header names no architecture (general.architecture)');
  const key = (name: string) => meta[`${architecture}.${name}`];
  const missing = ['context_length', 'embedding_length', 'block_count'].filter((name) => num(key(name)) === undefined);
  if (typeof meta['tokenizer.ggml.model'] !== 'string') missing.push('tokenizer.ggml.model');
  if (missing.length > 0) throw new GgufError(`the GGUF header lacks ${missing.map((m) => (m.includes('.') ? m : `${architecture}.${m}`)).join(', ')}`);
  if (header.tensorInfos.length === 0) throw new GgufError('the GGUF file holds no tensors');

  const contextLength = num(key('context_length'))!;
  const width = num(key('embedding_length'))!;
  const blocks = num(key('block_count'))!;
  const heads = num(key('attention.head_count')) ?? 1;
  const kvHeads = num(key('attention.head_count_kv')) ?? heads;
  const kvWidth = heads > 0 ? (width / heads) * kvHeads : width;
  // f16 K and V per layer per token, for the context a chat will usually get.
  const kvCache = 2 * blocks * Math.min(contextLength, 4096) * kvWidth * 2;
  const fileType = num(meta['general.file_type']);
  const quantization = fileType !== undefined ? (GGMLFileQuantizationType[fileType] ?? null) : null;
  const poolingType = key('pooling_type');
  // A cross-encoder: rank pooling, or the classification head llama.cpp scores with.
  const ranks = num(poolingType) === RANK_POOLING || header.tensorInfos.some((t) => RANKING_TENSORS.has(t.name));
  const kind: BuiltinModelKind = ranks ? 'reranker' : EMBEDDING_ARCHITECTURES.has(architecture) || poolingType !== undefined ? 'embedding' : 'chat';
  return {
    name: typeof meta['general.name'] === 'string' ? meta['general.name'] : null,
    architecture,
    context_length: contextLength,
    quantization,
    ram_estimate: Math.round(fileSize + kvCache + 64 * 1024 * 1024),
    kind,
    has_chat_template: typeof meta['tokenizer.chat_template'] === 'string',
  };
}
