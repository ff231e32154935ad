import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two cores: one worker per core. More only queues behind the CPU and makes every file slower.
    maxWorkers: 2,
    // Deadlines are not what these tests check: a busy machine may be many times slower, and a
    // test that waits on events should only ever fail for a wrong result, never for a slow one.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // Commands never start serve by themselves in tests (the tests of that turn it on).
    env: { BRAINSTREAM_AUTOSTART: '0' },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // Pure functions and in-memory state: the files share one module graph per worker
          // instead of loading the source again for each of them.
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // Integration tests share one PostgreSQL server and one Kafka broker; each file creates
          // its own database and topic prefix, so files may run in parallel, each in its own process.
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          pool: 'forks',
        },
      },
    ],
  },
});
