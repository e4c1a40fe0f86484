/**
 * Where the app serves the OCR engine's files (vite.config.ts's `ocrAssets` copies them from the npm
 * packages; nothing comes from a CDN). The folder names the versions, so the service worker may keep
 * the files forever: a new engine is a new folder.
 */
export const OCR_ASSET_BASE = '/ocr/tesseract-7.0.0-eng-4.0.0-best-int';

/** Served path (under OCR_ASSET_BASE) -> file in node_modules. */
export const OCR_ASSET_FILES: Record<string, string> = {
  'worker.min.js': 'tesseract.js/dist/worker.min.js',
  // LSTM only (OEM 1): Tesseract picks one of the three by what the browser's WebAssembly supports.
  'core/tesseract-core-lstm.wasm.js': 'tesseract.js-core/tesseract-core-lstm.wasm.js',
  'core/tesseract-core-simd-lstm.wasm.js': 'tesseract.js-core/tesseract-core-simd-lstm.wasm.js',
  'core/tesseract-core-relaxedsimd-lstm.wasm.js': 'tesseract.js-core/tesseract-core-relaxedsimd-lstm.wasm.js',
  // The "best" English model in integer form: 2.9 MB gzipped, LSTM only.
  'lang/eng.traineddata.gz': '@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz',
};
