import type { Command } from 'commander';
import { createReadStream, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { BrainstreamError } from '../../errors.js';
import { kafkaTopicName } from '../../event-log/kafka/kafka-topics.js';
import { cliIo } from '../../command-io.js';
import { commandContext } from '../globals.js';
import { kafkaSettings, withKafkaOptions, type KafkaFlags } from '../kafka-flags.js';
import { errLine, outJson, outLine, setExitCode } from '../output.js';

type Flags = KafkaFlags & { json?: boolean };
type LineKind = 'turns' | 'retrievals';

/** FILE, or the command's stdin when absent (or `-`). */
function openInput(file: string | undefined): NodeJS.ReadableStream {
  if (file === undefined || file === '-') return cliIo().stdin ?? Readable.from([]);
  let isFile = false;
  try {
    isFile = statSync(file).isFile();
  } catch {
    throw new BrainstreamError('path_not_found', `no such file: ${file}`);
  }
  if (!isFile) throw new BrainstreamError('not_a_file', `${file} is not a file`);
  return createReadStream(file);
}

async function publishJsonLines(what: LineKind, file: string | undefined, flags: Flags, cmd: Command): Promise<void> {
  const ctx = commandContext(cmd);
  const settings = kafkaSettings(flags);
  const input = openInput(file);
  // Kafka clients are loaded only here: no other command pays for them.
  const [lines, { withKafkaPublisher }, { publishLines }] = await Promise.all([
    import('../../distributed/json-line-schemas.js'),
    import('../../distributed/kafka-publisher.js'),
    import('../../distributed/publish-lines.js'),
  ]);
  const parse = what === 'turns' ? lines.turnLineParser(ctx.caller.source) : lines.retrievalLineParser(ctx.caller.source);
  const summary = await withKafkaPublisher(settings, (log) =>
    publishLines(input, parse, log, (r) => errLine(`brainstream: publish ${what}: line ${r.line}: ${r.reason}`)),
  );
  const topic = kafkaTopicName(settings.topicPrefix, what);
  if (flags.json) outJson({ topic, sent: summary.sent, rejected: summary.rejected.length, rejections: summary.rejected });
  else outLine(`publish ${what}: ${summary.sent} sent to ${topic}, ${summary.rejected.length} rejected`);
  if (summary.rejected.length > 0) setExitCode(1);
}

async function publishFolder(path: string, flags: Flags, cmd: Command): Promise<void> {
  const ctx = commandContext(cmd);
  const settings = kafkaSettings(flags);
  const [{ withKafkaPublisher }, { publishPages }] = await Promise.all([
    import('../../distributed/kafka-publisher.js'),
    import('../../distributed/publish-pages.js'),
  ]);
  const summary = await withKafkaPublisher(settings, (log) => publishPages(resolve(path), ctx.caller.source, log));
  for (const f of summary.failed) errLine(`brainstream: publish pages: ${f.file}: ${f.reason}`);
  const topic = kafkaTopicName(settings.topicPrefix, 'pages');
  if (flags.json) outJson({ ...summary, topic, failed: summary.failed.length, failures: summary.failed });
  else outLine(`publish pages: ${summary.published} sent to ${topic}, ${summary.failed.length} failed (source ${summary.source_id})`);
  if (summary.failed.length > 0) setExitCode(1);
}

const SOURCE_HELP = 'source of the events (lines may name their own source_id; default: BRAINSTREAM_SOURCE or "default")';

/** `brainstream publish turns|retrievals|pages`: events onto the Kafka topics of a distributed deployment. */
export function registerPublish(program: Command): void {
  const publish = program.command('publish').description('send turns, retrievals or pages to the Kafka topics of a distributed deployment');
  const lines: [LineKind, string][] = [
    ['turns', 'JSON lines {"session_id","role","text","turn"?,"at"?} → turn events; turn numbers per session when absent'],
    ['retrievals', 'JSON lines {"slug","source_id"?,"session_id"?,"at"?} → retrieval events'],
  ];
  for (const [what, description] of lines) {
    withKafkaOptions(
      publish
        .command(what)
        .description(description)
        .argument('[file]', 'JSON lines (default: stdin)')
        .option('--source <id>', SOURCE_HELP)
        .option('--json', 'print the summary as JSON'),
    ).action((file: string | undefined, flags: Flags, cmd: Command) => publishJsonLines(what, file, flags, cmd));
  }
  withKafkaOptions(
    publish
      .command('pages')
      .description('every *.md under PATH as page events of a source, read as `import` reads them')
      .argument('<path>', 'folder of markdown files')
      .option('--source <id>', 'source of the pages (default: BRAINSTREAM_SOURCE or "default")')
      .option('--json', 'print the summary as JSON'),
  ).action((path: string, flags: Flags, cmd: Command) => publishFolder(path, flags, cmd));
}
