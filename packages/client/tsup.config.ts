import { defineConfig } from 'tsup';
import { base } from '../../tsup.config.base';

// The client only borrows core's types: inline them into its declarations so a
// client-only install needs neither @leadroute/core nor Node types.
export default defineConfig({ ...base, dts: { resolve: ['@leadroute/core'] } });
