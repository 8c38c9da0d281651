export { createAudio, type Audio } from './audio.module';
export { audioRoutes } from './audio.routes';
export { audioGatewayRoutes } from './audio.gateway';
export { createLocalStt, type LocalStt } from './stt/local-stt';
