import { defineConfig } from 'tsup';
import { base } from '../../tsup.config.base';
import { BUNDLED, bundledPatterns } from '../../tsup.bundled';

/** The shared build, with the packages ../../tsup.bundled.ts names bundled in. */
export default defineConfig({ ...base, noExternal: bundledPatterns(BUNDLED['packages/core'] ?? []) });
