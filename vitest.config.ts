import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests share one PostgreSQL server and one Kafka broker; each file
    // creates its own database and topic prefix, so files may run in parallel.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Commands never start serve by themselves in tests (the tests of that turn it on).
    env: { BRAINSTREAM_AUTOSTART: '0' },
  },
});
