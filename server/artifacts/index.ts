export { artifactFrameRoutes, ARTIFACT_FRAME_CSP } from './artifact-frame';
