import { defineSection } from '../config';
import { DEFAULT_MODELS_CONFIG, ModelsConfig } from '../contracts/models';

/** Registry settings: whether every user may chat with the base models. */
export const ModelsConfigSection = defineSection<ModelsConfig>('models', ModelsConfig, DEFAULT_MODELS_CONFIG);
