export { createRatingsRepo, type RatingsRepo } from './ratings.repo';
export { createRatingsService, type RatingsService } from './ratings.service';
export { ratingsRoutes } from './ratings.routes';
