export { createCode, type Code } from './code.module';
export { codeConfigRoutes, codeExecuteRoutes } from './code.routes';
export type { CodeRun, CodeRunner } from './code-runner';
