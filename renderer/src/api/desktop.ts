import type { FirstRunSetup } from '../../../server/contracts/desktop';
import { http } from './http';

export type { FirstRunSetup };

/** The desktop app's first-run setup. */
export const desktopApi = {
  setup: () => http.get<FirstRunSetup>('/api/v1/desktop/setup'),
};
