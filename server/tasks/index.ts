export { createTasksService, type TasksService, type TaskOptions } from './tasks.service';
export { createTaskRunner, taskModelCandidates, type TaskRunner, type TaskCaller, type ChatModelRef } from './task-runner';
export { TaskConfigSection } from './tasks-config';
export { tasksRoutes } from './tasks.routes';
export { extractJsonField, extractJsonValues, extractStringList } from './json-extract';
export { renderTemplate, contentText, type TemplateMessage } from './template';
export { DEFAULT_TOOLS_FUNCTION_CALLING_PROMPT } from './default-prompts';
export { fallbackTitle } from './task-output';
