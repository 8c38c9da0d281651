export { gatewayRoutes, type GatewayRoutesDeps } from './gateway.routes';
export { openAiErrorHandler, openAiFallbacks } from './openai-errors';
export { usageRoutes } from './usage.routes';
export type { UsageService } from './usage';
export { createGateway, type Gateway } from './gateway.module';
