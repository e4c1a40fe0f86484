import type { Env } from './env-schema';

export type { Env };

/** The checked settings, written into the app by vite.config.ts's appEnv plugin (src/config/env-schema.ts). */
declare const __SCAMCHECK_ENV__: Env;

/**
 * The app's build-time settings (VITE_* variables), already checked and defaulted when Vite started
 * (src/config/env-schema.ts), so the first load carries neither the validator nor its work. A copy, so
 * tests may change a setting.
 */
export const env: Env = { ...__SCAMCHECK_ENV__ };
