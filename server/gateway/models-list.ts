import type { AvailableModel } from '../contracts/models';
import type { V1Model } from '../contracts/openai';

/** A model the caller may use, as GET /v1/models lists it. `created` is 0: Parley does not know when a provider made it. */
export function presentV1Model(model: AvailableModel): V1Model {
  return { id: model.id, object: 'model', created: 0, owned_by: model.kind === 'custom' ? 'parley' : (model.provider ?? 'parley'), name: model.name };
}
