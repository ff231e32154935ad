// Waits until a Kafka broker answers a metadata request (kafkajs admin listTopics).
// Usage: node infra/kafka/wait-ready.mjs [--brokers 127.0.0.1:9092] [--expect-brokers 1] [--timeout 60]
// With --expect-brokers N, every listed broker must answer and report a cluster of at least N.
// Exit 0 when ready, 1 on timeout (the last error goes to stderr), 2 on bad usage.
// kafkajs resolves from the repository's node_modules (npm ci first).

const args = process.argv.slice(2);
let brokers = '127.0.0.1:9092';
let timeoutSeconds = 60;
let expectBrokers = 1;
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === '--brokers') brokers = args[++i] ?? '';
  else if (arg === '--timeout') timeoutSeconds = Number(args[++i]);
  else if (arg === '--expect-brokers') expectBrokers = Number(args[++i]);
  else {
    console.error(`wait-ready: unknown argument ${arg}`);
    process.exit(2);
  }
}
if (!brokers || !Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0 || !Number.isInteger(expectBrokers) || expectBrokers < 1) {
  console.error('wait-ready: usage: wait-ready.mjs [--brokers host:port[,host:port]] [--expect-brokers n] [--timeout seconds]');
  process.exit(2);
}

let kafkajs;
try {
  kafkajs = await import('kafkajs');
} catch (error) {
  console.error(`wait-ready: cannot load kafkajs (run npm ci in the repository root): ${error.message}`);
  process.exit(1);
}
const { Kafka, logLevel } = kafkajs.default ?? kafkajs;

const deadline = Date.now() + timeoutSeconds * 1000;
const list = brokers.split(',').map((b) => b.trim()).filter(Boolean);
const client = (broker) =>
  new Kafka({
    clientId: 'brainstream-wait-ready',
    brokers: [broker],
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1000,
    requestTimeout: 5000,
    retry: { retries: 0 },
  });

/** Null when `broker` answers metadata requests and sees a cluster of `expectBrokers` with a controller; else why not. */
async function check(broker) {
  const admin = client(broker).admin({ retry: { retries: 0 } });
  try {
    await admin.connect();
    await admin.listTopics();
    const cluster = await admin.describeCluster();
    if (cluster.controller === null || cluster.controller === undefined) return `${broker}: no active controller yet`;
    if (cluster.brokers.length < expectBrokers) return `${broker}: sees ${cluster.brokers.length} of ${expectBrokers} brokers`;
    return null;
  } catch (error) {
    return `${broker}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

let lastError = 'no attempt made';
while (Date.now() < deadline) {
  const problems = (await Promise.all(list.map(check))).filter((p) => p !== null);
  if (problems.length === 0) process.exit(0);
  lastError = problems.join('; ');
  await new Promise((resolve) => setTimeout(resolve, 250));
}
console.error(`wait-ready: no Kafka broker answered on ${brokers} within ${timeoutSeconds}s (last error: ${lastError})`);
process.exit(1);
