import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests share one PostgreSQL server and one Kafka broker; each file
    // creates its own database and topic prefix, so files may run in parallel.
    pool: 'forks',
    maxWorkers: 2,
    // Deadlines are not what these tests check: a busy machine may be many times slower, and a
    // test that waits on events should only ever fail for a wrong result, never for a slow one.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // Commands never start serve by themselves in tests (the tests of that turn it on).
    env: { BRAINSTREAM_AUTOSTART: '0' },
  },
});
