// Waits until a Kafka broker answers a metadata request (kafkajs admin listTopics).
// Usage: node infra/kafka/wait-ready.mjs [--brokers 127.0.0.1:9092] [--timeout 60]
// Exit 0 when ready, 1 on timeout (the last error goes to stderr), 2 on bad usage.
// kafkajs resolves from the repository's node_modules (npm ci first).

const args = process.argv.slice(2);
let brokers = '127.0.0.1:9092';
let timeoutSeconds = 60;
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === '--brokers') brokers = args[++i] ?? '';
  else if (arg === '--timeout') timeoutSeconds = Number(args[++i]);
  else {
    console.error(`wait-ready: unknown argument ${arg}`);
    process.exit(2);
  }
}
if (!brokers || !Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
  console.error('wait-ready: usage: wait-ready.mjs [--brokers host:port[,host:port]] [--timeout seconds]');
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
const kafka = new Kafka({
  clientId: 'brainstream-wait-ready',
  brokers: brokers.split(',').map((b) => b.trim()).filter(Boolean),
  logLevel: logLevel.NOTHING,
  connectionTimeout: 1000,
  requestTimeout: 5000,
  retry: { retries: 0 },
});

let lastError = 'no attempt made';
while (Date.now() < deadline) {
  const admin = kafka.admin({ retry: { retries: 0 } });
  try {
    await admin.connect();
    await admin.listTopics();
    const cluster = await admin.describeCluster();
    if (cluster.brokers.length > 0 && cluster.controller !== null && cluster.controller !== undefined) {
      await admin.disconnect();
      process.exit(0);
    }
    lastError = 'broker answered but reports no active controller yet';
  } catch (error) {
    lastError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
  await admin.disconnect().catch(() => {});
  await new Promise((resolve) => setTimeout(resolve, 250));
}
console.error(`wait-ready: no Kafka broker answered on ${brokers} within ${timeoutSeconds}s (last error: ${lastError})`);
process.exit(1);
