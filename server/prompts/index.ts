export { createPromptsRepo, type PromptsRepo } from './prompts.repo';
export { createPromptsService, type PromptsService } from './prompts.service';
export { promptsRoutes } from './prompts.routes';
