import type { Response } from 'express';
import type { V1EmbeddingsRequest, V1EmbeddingsResponse } from '../contracts/openai';
import { HttpError, badRequest } from '../platform/http/errors';
import type { RouteAuth } from '../platform/http/route';
import type { Embedder } from '../retrieval';
import { estimateTokens } from './token-estimate';
import type { UsageRecorder } from './usage';

/** What the /v1 embeddings endpoint needs: the configured embedding engine. */
export interface EmbeddingsDeps {
  embedder: () => Promise<Embedder>;
  usage: UsageRecorder;
}


/** Little-endian float32 bytes in base64, as OpenAI's `encoding_format: base64`. */
export function base64Vector(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, i) => bytes.writeFloatLE(value, i * 4));
  return bytes.toString('base64');
}

/**
 * POST /v1/embeddings: vectors from the embedding engine Parley is configured with (the built-in
 * offline embedder when none is), unit length. Whatever `model` the caller names, the engine's own
 * model makes the vectors: the response and the usage table name that one (never a name the
 * caller made up). The built-in embedder works on the event loop in slices of a few milliseconds;
 * the request's size is capped by its schema. Answers undefined when the client left.
 */
export async function embeddings(deps: EmbeddingsDeps, { auth, body, res }: { auth: RouteAuth; body: V1EmbeddingsRequest; res: Response }): Promise<V1EmbeddingsResponse | undefined> {
  const inputs = typeof body.input === 'string' ? [body.input] : body.input;
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  let embedder: Embedder;
  let vectors: Float32Array[];
  try {
    embedder = await deps.embedder();
    vectors = await embedder.embed(inputs, controller.signal);
  } catch (error) {
    if (controller.signal.aborted) return undefined;
    throw new HttpError(502, 'EMBEDDING_FAILED', `The embedding engine failed: ${error instanceof Error ? error.message : 'unknown error'}`);
  }
  const size = vectors[0]?.length ?? 0;
  if (body.dimensions !== undefined && body.dimensions !== size) throw badRequest(`Field 'dimensions': this engine makes ${size}-dimensional vectors`, 'DIMENSIONS_UNSUPPORTED');
  const tokens = estimateTokens(inputs);
  const answer: V1EmbeddingsResponse = {
    object: 'list',
    data: vectors.map((vector, index) => ({ object: 'embedding', index, embedding: body.encoding_format === 'base64' ? base64Vector(vector) : Array.from(vector) })),
    model: embedder.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
  await deps.usage.record(auth.user.id, embedder.model, { prompt_tokens: tokens, completion_tokens: 0, total_tokens: tokens });
  return answer;
}
