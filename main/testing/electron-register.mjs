// `node --import ./electron-register.mjs app.js` runs a built shell against the Electron stand-in.
import { register } from 'node:module';

register('./electron-hooks.mjs', import.meta.url);
