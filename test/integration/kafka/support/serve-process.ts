import { spawn, type ChildProcess } from 'node:child_process';
import { CLI } from '../../../support/cli.js';
import { WAIT_BUDGET_MS, waitFor } from './wait-for.js';

export interface ServeArgs {
  brokers: string[];
  topicPrefix: string;
  database: string;
  group: string;
  home: string;
  /** Group session timeout; short in tests so a killed member's partitions move within seconds. */
  sessionTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** A pino line of the serve's stderr. */
export type LogLine = Record<string, unknown> & { msg?: string; group?: string };

/** A real `brainstream serve --kafka` process of the built CLI, its stderr kept line by line. */
export class ServeProcess {
  readonly stderr: string[] = [];
  private exited: Promise<number | null>;

  private constructor(readonly child: ChildProcess) {
    let buffered = '';
    child.stderr!.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      this.stderr.push(...lines);
    });
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  static async start(args: ServeArgs): Promise<ServeProcess> {
    const argv = [CLI, 'serve', '--kafka', args.brokers.join(','), '--database', args.database, '--group', args.group, '--topic-prefix', args.topicPrefix];
    argv.push('--session-timeout-ms', String(args.sessionTimeoutMs ?? 6000));
    const env = { ...process.env, BRAINSTREAM_HOME: args.home, BRAINSTREAM_LOG_LEVEL: 'info', BRAINSTREAM_SOURCE: '', ...args.env };
    const serve = new ServeProcess(spawn(process.execPath, argv, { env, stdio: ['ignore', 'ignore', 'pipe'] }));
    await serve.waitForLine('the serve to be ready', (l) => l.includes(': ready (pid'));
    return serve;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** The structured (pino) lines so far. */
  logs(): LogLine[] {
    return this.stderr.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as LogLine);
  }

  /** Partition assignments of the processors' group `group`, oldest first: turn partitions per assignment. */
  turnAssignments(group: string, turnsTopic: string): number[][] {
    return this.logs()
      .filter((l) => l.msg === 'partitions assigned' && l.group === group)
      .map((l) => ((l.assignment as Record<string, number[]>)[turnsTopic] ?? []).slice().sort((a, b) => a - b));
  }

  async waitForLine(what: string, match: (line: string) => boolean, timeoutMs = WAIT_BUDGET_MS): Promise<string> {
    let exited = false;
    void this.exited.then(() => (exited = true));
    return waitFor(what, () => {
      const line = this.stderr.find(match);
      if (line) return line;
      if (exited) throw new Error(`serve exited while waiting for ${what}:\n${this.stderr.join('\n')}`);
      return null;
    }, timeoutMs);
  }

  /** kill -9: no shutdown at all. */
  async kill9(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM and the exit code of the graceful shutdown. */
  async stop(): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    return this.exited;
  }
}
