export { createOwnerHandover, type OwnerHandover } from './owner-handover';
export { createFirstRunSetup, probeOllama, type FirstRunSetup, type FirstRunSetupService } from './first-run-setup';
export { desktopHandoverRoutes, firstRunSetupRoutes } from './desktop.routes';
