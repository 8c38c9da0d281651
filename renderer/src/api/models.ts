import type { AccessControl } from '../../../server/contracts/access';
import { ApiError, http } from './http';

// Wire types of section 2 "Model". They move to server/contracts when the models domain publishes its own.

/** What a model can do (section 2, meta.capabilities). */
export interface ModelCapabilities {
  vision?: boolean;
  file_upload?: boolean;
  web_search?: boolean;
  image_generation?: boolean;
  code_interpreter?: boolean;
  citations?: boolean;
  status_updates?: boolean;
  usage?: boolean;
}

/** meta of a model. */
export interface ModelMeta {
  profile_image_url?: string;
  description?: string | null;
  capabilities?: ModelCapabilities | null;
  knowledge?: Array<{ id: string; name: string; type: string }>;
  toolIds?: string[];
  tags?: Array<string | { name: string }>;
  suggestion_prompts?: unknown;
  [key: string]: unknown;
}

/** Params of a model: the system prompt and sampling settings. */
export interface ModelParams {
  system?: string;
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  seed?: number;
  [key: string]: unknown;
}

/** A registry entry: base (base_model_id null) or custom. */
export interface Model {
  id: string;
  name: string;
  base_model_id: string | null;
  user_id?: string;
  params: ModelParams;
  meta: ModelMeta;
  access_control: AccessControl;
  is_active: boolean;
  created_at?: number;
  updated_at?: number;
  user?: { id: string; name: string; email: string; role: string };
  /** Where a base model comes from (connection), when the service says. */
  owned_by?: string;
}

/** The body of create and update. */
export type ModelForm = Pick<Model, 'id' | 'name' | 'base_model_id' | 'params' | 'meta' | 'access_control' | 'is_active'>;

const base = '/api/v1/models';
const q = (id: string) => ({ id });

let availablePath: 'available' | 'list' | undefined;

/** Section 4.4: the model registry. */
export const modelsApi = {
  /** Raw provider models (admin). */
  base: () => http.get<Model[] | { data: Model[] }>('/api/models').then((r) => (Array.isArray(r) ? r : r.data)),
  list: () => http.get<Model[]>(`${base}/list`),
  /** Models the caller may chat with: `/models/available`, or the readable list when that does not exist. */
  available: async (): Promise<Model[]> => {
    if (availablePath !== 'list') {
      try {
        const r = await http.get<Model[] | { data: Model[] }>(`${base}/available`);
        availablePath = 'available';
        return Array.isArray(r) ? r : r.data;
      } catch (error) {
        if (!(error instanceof ApiError) || (error.status !== 404 && error.status !== 405)) throw error;
        availablePath = 'list';
      }
    }
    return (await http.get<Model[]>(`${base}/list`)).filter((m) => m.is_active !== false);
  },
  get: (id: string) => http.get<Model>(`${base}/model`, q(id)),
  create: (body: ModelForm) => http.post<Model>(`${base}/create`, body),
  update: (id: string, body: ModelForm) => http.post<Model>(`${base}/model/update?id=${encodeURIComponent(id)}`, body),
  toggle: (id: string) => http.post<Model>(`${base}/model/toggle?id=${encodeURIComponent(id)}`),
  remove: (id: string) => http.delete<true>(`${base}/model/delete`, q(id)),
};
