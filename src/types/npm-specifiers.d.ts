/**
 * The edge functions' shared code (supabase/functions/_shared) imports packages as pinned `npm:`
 * specifiers, as Deno requires; the SPA imports the same files, and Vite resolves those specifiers to
 * the same packages in node_modules (vite.config.ts). These declarations give them the packages' types.
 * The versions must match package.json (checked by src/lib/check-message.test.ts).
 */
declare module 'npm:linkify-it@5.0.2' {
  import LinkifyIt from 'linkify-it';
  export default LinkifyIt;
}
declare module 'npm:tldts@7.5.4' {
  export * from 'tldts';
}
declare module 'npm:libphonenumber-js@1.13.16' {
  export * from 'libphonenumber-js';
}
declare module 'npm:punycode@2.3.1/punycode.es6.js' {
  export * from 'punycode';
}
declare module 'npm:unhomoglyph@1.0.6' {
  import unhomoglyph from 'unhomoglyph';
  export default unhomoglyph;
}
declare module 'npm:@scure/base@2.4.0' {
  export * from '@scure/base';
}
declare module 'npm:@noble/hashes@2.4.0/sha2.js' {
  export * from '@noble/hashes/sha2.js';
}
declare module 'npm:@noble/hashes@2.4.0/utils.js' {
  export * from '@noble/hashes/utils.js';
}
declare module 'npm:@noble/hashes@2.4.0/legacy.js' {
  export * from '@noble/hashes/legacy.js';
}
declare module 'npm:@noble/hashes@2.4.0/sha3.js' {
  export * from '@noble/hashes/sha3.js';
}
declare module 'npm:zod@4.6.7' {
  export * from 'zod';
}
