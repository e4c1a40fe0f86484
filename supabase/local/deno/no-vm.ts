// node:vm as the hosted edge runtime offers it: not at all. The local worker's import map points
// `node:vm` here (supabase/local/edge-limits.ts), so a function that uses it fails here as there.
function unavailable(): never {
  throw new Error('node:vm is not available in Supabase Edge Functions');
}
export class Script {
  constructor() {
    unavailable();
  }
}
export const createContext = unavailable;
export const isContext = unavailable;
export const runInContext = unavailable;
export const runInNewContext = unavailable;
export const runInThisContext = unavailable;
export const compileFunction = unavailable;
export default {
  Script,
  createContext,
  isContext,
  runInContext,
  runInNewContext,
  runInThisContext,
  compileFunction,
};
