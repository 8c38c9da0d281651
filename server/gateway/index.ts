export { gatewayRoutes, type GatewayRoutesDeps } from './gateway.routes';
export { openAiErrorHandler, openAiFallbacks } from './openai-errors';
export { usageRoutes } from './usage.routes';
export { accountRateLimit, type RateLimit } from './rate-limit';
export type { UsageService } from './usage';
export { createGateway, type Gateway } from './gateway.module';
