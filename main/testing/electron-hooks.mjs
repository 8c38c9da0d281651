// Module hooks for the wiring smoke test: `electron` resolves to the stand-in below.
const standIn = new URL('./electron-stand-in.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: standIn, shortCircuit: true };
  return next(specifier, context);
}
