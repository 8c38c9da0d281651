import type { AvailableModel, BaseModel, Model, ModelListEntry, ModelMeta, ModelParams, UpdateModelRequest } from '../../../server/contracts/models';
import { ApiError, http } from './http';

export type { AvailableModel, Model, ModelListEntry, ModelMeta, ModelParams };

/** What a model can do (meta.capabilities keys the UI offers). */
export type ModelCapability = 'vision' | 'file_upload' | 'web_search' | 'image_generation' | 'code_interpreter' | 'citations' | 'status_updates' | 'usage';

/** The body of create and update (all fields, as update requires). */
export type ModelForm = UpdateModelRequest;

/** A model the chat can pick: the fields the picker shows. */
export interface PickableModel {
  id: string;
  name: string;
  base_model_id: string | null;
  meta?: ModelMeta;
  /** The provider kind running it, when the service says. */
  provider?: AvailableModel['provider'];
}

const base = '/api/v1/models';
const withId = (path: string, id: string) => `${base}${path}?id=${encodeURIComponent(id)}`;

let availableMissing = false;

/** Section 4.4: the model registry. */
export const modelsApi = {
  /** Raw provider models (admin). */
  base: () => http.get<BaseModel[] | { data: BaseModel[] }>('/api/models').then((r) => (Array.isArray(r) ? r : r.data)),
  list: () => http.get<ModelListEntry[]>(`${base}/list`),
  /** Models the caller may chat with: `/models/available`, or the readable active list where that does not exist. */
  available: async (): Promise<PickableModel[]> => {
    if (!availableMissing) {
      try {
        return await http.get<AvailableModel[]>(`${base}/available`);
      } catch (error) {
        if (!(error instanceof ApiError) || (error.status !== 404 && error.status !== 405)) throw error;
        availableMissing = true;
      }
    }
    return (await http.get<ModelListEntry[]>(`${base}/list`)).filter((m) => m.is_active);
  },
  get: (id: string) => http.get<Model>(`${base}/model`, { id }),
  create: (body: ModelForm) => http.post<Model>(`${base}/create`, body),
  update: (id: string, body: ModelForm) => http.post<Model>(withId('/model/update', id), body),
  toggle: (id: string) => http.post<Model>(withId('/model/toggle', id)),
  remove: (id: string) => http.delete<true>(`${base}/model/delete`, { id }),
};
