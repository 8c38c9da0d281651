export { graphRoutes } from './graph.routes';
export type { GraphService } from './graph.service';
export { createGraph, type Graph } from './graph.module';
