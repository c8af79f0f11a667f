// esbuild bundles imported stylesheets into app.css (scripts/build-page.mjs); to TypeScript they are modules with no exports.
declare module '*.css';

// milsymbol's ES entry (resolved by scripts/build-page.mjs): the core and the 2525C letter-SIDC icons alone.
declare module 'milsymbol/index.mjs' {
  import type milsymbol from 'milsymbol';
  export const ms: typeof milsymbol & { addIcons(icons: unknown): void };
  export const std2525c: unknown;
}
