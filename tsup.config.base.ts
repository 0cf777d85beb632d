import { defineConfig } from 'tsup';

/** The build every package shares (each package's tsup.config.ts re-exports it): ESM and CJS with declarations. */
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  tsconfig: '../../tsconfig.build.json',
});
