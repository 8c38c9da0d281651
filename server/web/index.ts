export { createWeb, type Web, type WebTestOptions } from './web.module';
export { webRoutes } from './web.routes';
export { createWebSearchPlug } from './chat/web-search-plug';
export { tableResolve, type Resolve } from './fetch/resolver';
export type { OutboundGate } from './fetch/guarded-agent';
export type { WebService } from './web.service';
