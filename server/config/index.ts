export { createConfigRepo, type ConfigRepo } from './config.repo';
export { createConfigService, defineSection, type ConfigService, type ConfigSection } from './config.service';
export { suggestionsRoutes } from './suggestions.routes';
