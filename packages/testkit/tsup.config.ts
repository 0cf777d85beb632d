import { defineConfig } from 'tsup';
import { base } from '../../tsup.config.base';

// Two entries: the main one never loads vitest; `./suites` registers vitest tests.
export default defineConfig({ ...base, entry: { index: 'src/index.ts', suites: 'src/suites/index.ts' } });
