import type { CodeExecuteResponse, CodeExecutionConfig } from '../../../server/contracts/code';
import type { ImageModel, ImagesConfig } from '../../../server/contracts/images';
import { http } from './http';

export type { CodeExecuteResponse, CodeExecutionConfig, ImageModel, ImagesConfig };

/** Running code (the Run button, the interpreter's warm-up) and its settings. */
export const codeApi = {
  execute: (code: string, fileIds?: string[]) => http.post<CodeExecuteResponse>('/api/v1/utils/code/execute', { code, ...(fileIds?.length ? { file_ids: fileIds } : {}) }),
  warm: () => http.post<{ status: boolean }>('/api/v1/utils/code/warm', {}),
  config: () => http.get<CodeExecutionConfig>('/api/v1/configs/code_execution'),
  setConfig: (body: CodeExecutionConfig) => http.post<CodeExecutionConfig>('/api/v1/configs/code_execution', body),
};

/** Image generation settings and models. */
export const imagesApi = {
  config: () => http.get<ImagesConfig>('/api/v1/images/config'),
  setConfig: (body: ImagesConfig) => http.post<ImagesConfig>('/api/v1/images/config/update', body),
  models: () => http.get<ImageModel[]>('/api/v1/images/models'),
};
