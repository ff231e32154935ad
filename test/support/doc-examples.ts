/**
 * Finds the shell examples of a markdown guide and splits them into the commands a reader would
 * type. Pure: text in, examples out; running them is the test's job.
 *
 * What counts as an example: a fenced block tagged `sh`, `bash`, `shell` or `console` with at least
 * one `brainstream` command in it. An HTML comment on the line before the fence (blank lines
 * allowed between) says how to run it, unseen by readers of the rendered page:
 *
 *   <!-- example: setup=sample-brain,transcript-feed -->   prepare the home or folder first
 *   <!-- example: skip reason="needs a systemd user session" -->   never run, listed with its reason
 *   <!-- example: services=kafka,postgres -->               needs KAFKA_BROKERS / DATABASE_URL
 *
 * In `sh`/`bash` blocks every line (with `\` continuations joined) is a command and `#` starts a
 * comment; only the exit code is checked. In `console` blocks a command starts with `$ `, the lines
 * after it up to the next `$ ` are its output (compared exactly, trailing spaces ignored, `…` on a
 * line of its own standing for any lines and `…` inside a line for any text in that line, such as
 * a temporary path or a date that moves with the clock), and a last output line `[exit N]` is its
 * exit code.
 * `npx brainstream` and `brainstream` are the same command to the runner.
 */

export interface DocCommand {
  /** 1-based line of the command in the markdown file. */
  line: number;
  /** The command as the shell should run it, comments removed. */
  text: string;
  /** The output the doc shows, or null where it shows none (sh/bash blocks). */
  output: string[] | null;
  exitCode: number;
  /** Ends with `&`: started in the background and stopped when the document's examples end. */
  background: boolean;
}

export interface DocExample {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  setup: string[];
  services: string[];
  skip: string | null;
  commands: DocCommand[];
}

const SHELL_LANGS = new Set(['sh', 'bash', 'shell', 'console']);
const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/;
/** `brainstream` as a command word (not inside a path such as /path/to/brainstream). */
const INVOKES = /(^|[\s|&;(])brainstream(\s|$)/;
const ANNOTATION = /^\s*<!--\s*example:(.*?)-->\s*$/;

/** `key=value` and `key="value with spaces"` pairs of an annotation; a bare word is `key=true`. */
export function parseAnnotation(body: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of body.matchAll(/([\w-]+)(?:=(?:"([^"]*)"|(\S+)))?/g)) out[m[1]!] = m[2] ?? m[3] ?? 'true';
  return out;
}

const list = (v: string | undefined): string[] => (v === undefined || v === '' ? [] : v.split(',').map((s) => s.trim()));

/** Strips a shell comment (a `#` outside quotes that starts a word). */
export function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== null) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i).trimEnd();
  }
  return line.trimEnd();
}

const normaliseCommand = (text: string): string => text.replace(/\bnpx brainstream\b/g, 'brainstream');

function scriptCommands(body: string[], firstLine: number): DocCommand[] {
  const commands: DocCommand[] = [];
  for (let i = 0; i < body.length; i++) {
    const line = firstLine + i;
    let text = stripComment(body[i]!);
    while (text.endsWith('\\') && i + 1 < body.length) text = `${text.slice(0, -1).trimEnd()} ${stripComment(body[++i]!).trim()}`;
    text = text.trim();
    if (text === '' || !INVOKES.test(text)) continue;
    const background = /(^|[^&])&$/.test(text);
    commands.push({ line, text: normaliseCommand(background ? text.slice(0, -1).trim() : text), output: null, exitCode: 0, background });
  }
  return commands;
}

function consoleCommands(body: string[], firstLine: number): DocCommand[] {
  const commands: DocCommand[] = [];
  for (let i = 0; i < body.length; i++) {
    if (!body[i]!.startsWith('$ ')) continue;
    const line = firstLine + i;
    let text = stripComment(body[i]!.slice(2));
    while (text.endsWith('\\') && i + 1 < body.length) text = `${text.slice(0, -1).trimEnd()} ${stripComment(body[++i]!).trim()}`;
    const output: string[] = [];
    while (i + 1 < body.length && !body[i + 1]!.startsWith('$ ')) output.push(body[++i]!);
    let exitCode = 0;
    const exit = /^\[exit (\d+)\]$/.exec(output.at(-1) ?? '');
    if (exit) {
      exitCode = Number(exit[1]);
      output.pop();
    }
    commands.push({ line, text: normaliseCommand(text.trim()), output, exitCode, background: false });
  }
  return commands;
}

/** Every shell example of one markdown file, in order. */
export function extractExamples(file: string, markdown: string): DocExample[] {
  const lines = markdown.split('\n');
  const examples: DocExample[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && !(lines[i]!.trim().startsWith(fence!) && lines[i]!.trim().replace(/[`~]/g, '') === '')) {
      body.push(lines[i]!.startsWith(indent!) ? lines[i]!.slice(indent!.length) : lines[i]!);
    }
    if (!SHELL_LANGS.has(lang!)) continue;
    const commands = lang === 'console' ? consoleCommands(body, start + 2) : scriptCommands(body, start + 2);
    if (commands.length === 0) continue;
    let a = start - 1;
    while (a >= 0 && lines[a]!.trim() === '') a--;
    const note = a >= 0 ? ANNOTATION.exec(lines[a]!) : null;
    const opts = note ? parseAnnotation(note[1]!) : {};
    examples.push({
      file,
      line: start + 1,
      lang: lang!,
      setup: list(opts.setup),
      services: list(opts.services),
      skip: opts.skip !== undefined ? (opts.reason ?? 'no reason given') : null,
      commands,
    });
  }
  return examples;
}

/**
 * Whether the output a command printed is what the doc shows: line by line, trailing spaces and
 * trailing blank lines ignored; a doc line that is only `…` matches any run of lines (none too),
 * and a `…` inside a doc line matches any text within one line.
 */
export function outputMatches(shown: readonly string[], actual: string): boolean {
  const want = trimLines(shown);
  const got = trimLines(actual.split('\n'));
  const match = (w: number, g: number): boolean => {
    if (w === want.length) return g === got.length;
    if (want[w] === '…') {
      for (let k = g; k <= got.length; k++) if (match(w + 1, k)) return true;
      return false;
    }
    return g < got.length && lineMatches(want[w]!, got[g]!) && match(w + 1, g + 1);
  };
  return match(0, 0);
}

function lineMatches(shown: string, actual: string): boolean {
  if (!shown.includes('…')) return shown === actual;
  const pattern = shown.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${pattern}$`).test(actual);
}

function trimLines(lines: readonly string[]): string[] {
  const out = lines.map((l) => l.trimEnd());
  while (out.length > 0 && out.at(-1) === '') out.pop();
  return out;
}
