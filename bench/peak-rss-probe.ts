import { writeFileSync } from 'node:fs';

/**
 * Preloaded into a child process (`node --import …/peak-rss-probe.js`): at exit it writes the
 * process's peak resident memory in KiB to BENCH_PEAK_RSS_FILE, so a benchmark can report a
 * CLI run's own memory rather than its own.
 */
const file = process.env.BENCH_PEAK_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
