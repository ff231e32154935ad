import { codeFenceMask } from './code-fences.js';

export interface BodySplit {
  compiled_truth: string;
  timeline: string;
}

const TIMELINE_HEADING = /^##\s+(timeline|history)\b/i;
const DATED_BULLET = /^\s*[-*+]\s+\**\d{4}\b/;
const INDENTED = /^(?: {2,}|\t)/;
const isBlank = (line: string): boolean => line.trim() === '';

/** Sentinels 1 and 2: an HTML comment or a `--- timeline ---` rule. */
function isMarkerSentinel(line: string): boolean {
  const t = line.trim();
  return t === '<!-- timeline -->' || t === '<!--timeline-->' || /^---\s+timeline\s+---$/i.test(t);
}

/** Sentinel 3: a bare `---` after some text whose next non-blank line is a timeline heading. */
function isRuleSentinel(lines: readonly string[], i: number, textBefore: boolean): boolean {
  if (!textBefore || lines[i].trim() !== '---') return false;
  let next = i + 1;
  while (next < lines.length && isBlank(lines[next])) next++;
  return next < lines.length && TIMELINE_HEADING.test(lines[next]);
}

/**
 * The fallback section starting at heading `start`: it ends at the next `## ` heading and
 * must hold only blank lines, dated bullets and (after a dated bullet) indented lines, with
 * at least one dated bullet. Returns the index just past the section, or -1.
 */
function timelineSectionEnd(lines: readonly string[], start: number): number {
  let end = start + 1;
  while (end < lines.length && !lines[end].startsWith('## ')) end++;
  let dated = false;
  for (let i = start + 1; i < end; i++) {
    const line = lines[i];
    if (isBlank(line)) continue;
    if (DATED_BULLET.test(line)) dated = true;
    else if (!(dated && INDENTED.test(line))) return -1;
  }
  return dated ? end : -1;
}

/**
 * Splits a page body into compiled truth and timeline: at the first
 * sentinel line, else at a `## Timeline`/`## History` section made only of dated bullets,
 * else not at all. Both halves are trimmed.
 */
export function splitBody(body: string): BodySplit {
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  let textBefore = false;
  for (let i = 0; i < lines.length; i++) {
    if (isMarkerSentinel(lines[i]) || isRuleSentinel(lines, i, textBefore)) {
      return {
        compiled_truth: lines.slice(0, i).join('\n').trim(),
        timeline: lines.slice(i + 1).join('\n').trim(),
      };
    }
    if (!isBlank(lines[i])) textBefore = true;
  }

  const inCode = codeFenceMask(lines);
  textBefore = false;
  for (let i = 0; i < lines.length; i++) {
    if (!inCode[i] && textBefore && TIMELINE_HEADING.test(lines[i])) {
      const end = timelineSectionEnd(lines, i);
      if (end >= 0) {
        return {
          compiled_truth: [...lines.slice(0, i), ...lines.slice(end)].join('\n').trim(),
          timeline: lines.slice(i, end).join('\n').trim(),
        };
      }
    }
    if (!isBlank(lines[i])) textBefore = true;
  }
  return { compiled_truth: body.replace(/\r\n?/g, '\n').trim(), timeline: '' };
}
