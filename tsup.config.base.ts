import { defineConfig, type Options } from 'tsup';

/**
 * The build every package shares (each package's tsup.config.ts re-exports or extends it): ESM and CJS with
 * declarations.
 */
export const base: Options = {
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  tsconfig: '../../tsconfig.build.json',
};

export default defineConfig(base);
