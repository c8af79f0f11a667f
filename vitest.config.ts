import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Socket and process tests wait on real events with their own bounded timeouts.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
