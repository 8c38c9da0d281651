export { createImages, type Images } from './images.module';
export { imagesRoutes } from './images.routes';
export type { ImagesService, ImageCaller } from './images.service';
