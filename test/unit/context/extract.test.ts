import { describe, expect, it } from 'vitest';
import { extractCandidates, sentenceStart } from '../../../src/context/extract.js';
import { HARD_STOPWORDS, SOFT_COMMON_WORDS } from '../../../src/context/stopwords.js';

const strong = (text: string): string[] =>
  extractCandidates(text)
    .filter((c) => !c.weak)
    .map((c) => (c.display === c.query ? c.display : `${c.display}/${c.query}`));
const weak = (text: string): string[] => extractCandidates(text).filter((c) => c.weak).map((c) => c.display);

describe('single-turn extraction examples', () => {
  it.each<[string, string[], string[]]>([
    ['what do you think about Garry Tan?', ['Garry Tan'], ['think', 'about']],
    ['ping @garry about it', ['@garry/garry'], ['ping', 'about']],
    ["Garry's idea", ["Garry's/Garry"], ['idea']],
    ['Monday we ship. Today is busy.', [], ['ship', 'busy']],
    ['we meet Monday.', ['Monday'], ['meet']],
    ['Sarah went home early.', ['Sarah'], ['went', 'home', 'early']],
    ['What should We do? The plan is set.', [], ['plan', 'set']],
    ['A 2026 plan', [], ['plan']],
    ['Did Galewright ever follow up?', ['Did Galewright', 'Galewright'], ['ever', 'follow']],
    ['Will Smith called', ['Will Smith', 'Smith'], ['called']],
    ['Met Alice Example today', ['Met Alice Example'], []],
    ['Apple and apple again', ['Apple'], ['again']],
    ['김철수 미팅 노트 보여줘', [], ['김철수', '미팅', '노트', '보여줘']],
    ['それをしてください', [], []],
  ])('%j', (text, s, w) => {
    expect(strong(text)).toEqual(s);
    expect(weak(text)).toEqual(w);
  });

  it('田中さんの会議のメモを見せて: 4/3/2-grams per start, pure-hiragana grams skipped, ≤ 24', () => {
    const grams = weak('田中さんの会議のメモを見せて');
    expect(strong('田中さんの会議のメモを見せて')).toEqual([]);
    expect(grams.slice(0, 7)).toEqual(['田中さん', '田中さ', '田中', '中さんの', '中さん', '中さ', 'さんの会']);
    expect(grams).not.toContain('さんの');
    expect(grams).not.toContain('んの');
    expect(grams).toHaveLength(24);
  });
});

describe('strong pass', () => {
  it('handles first, with no left boundary, treated as mid-sentence', () => {
    expect(strong('Mail bob@example.com and @al_b2')).toEqual(['@example/example', '@al_b2/al_b2', 'Mail']);
    expect(strong('@a x')).toEqual([]);
  });

  it('no left word boundary for capitalised runs: iPhone → Phone', () => {
    expect(strong('my iPhone broke')).toEqual(['Phone']);
  });

  it('runs take at most four tokens and can span a line break', () => {
    expect(strong('we saw Anna Bea Cara Dana Eve there')).toEqual(['Anna Bea Cara Dana', 'Eve']);
    expect(strong('met Alice\nExample')).toEqual(['Alice\nExample']);
  });

  it('a token keeps inner dots only before a letter: U.S. stays, a sentence end does not glue', () => {
    expect(strong('the U.S. team met Apple.Then Kim')).toEqual(['U.S', 'Apple.Then Kim']);
    expect(strong('I like Apple. Kim agrees')).toEqual(['Apple', 'Kim']);
  });

  it('sentenceStart: text start, . ! ? : ; • - ( [ " “ before whitespace; not a bare line break, comma or quote', () => {
    const at = (text: string, word: string): boolean => sentenceStart(text, text.indexOf(word));
    expect(at('Monday', 'Monday')).toBe(true);
    for (const p of ['.', '!', '?', ':', ';', '•', '-', '(', '[', '"', '“']) expect(at(`x${p}  Monday`, 'Monday')).toBe(true);
    expect(at('x\nMonday', 'Monday')).toBe(false);
    expect(at('x, Monday', 'Monday')).toBe(false);
    expect(at("x' Monday", 'Monday')).toBe(false);
  });

  it('soft common words survive when also seen mid-sentence', () => {
    expect(strong('Monday works. See you Monday')).toEqual(['Monday', 'See']);
    expect(strong('Monday works.')).toEqual([]);
  });

  it('stopword peeling: leading hard stopwords removed, original run kept', () => {
    expect(strong('The Widget Company rocks')).toEqual(['The Widget Company', 'Widget Company']);
    expect(strong("Did The Beatles play")).toEqual(['Did The Beatles', 'Beatles']);
    expect(strong("I'm Bob")).toEqual(["I'm Bob", 'Bob']);
  });

  it('precision filter: single chars, pure numbers, hard stopwords dropped; multi-token always kept', () => {
    expect(strong('X marks it')).toEqual([]);
    expect(strong('call @2026 now')).toEqual([]);
    expect(strong('ping @12.5')).toEqual([]);
    expect(strong('so The The')).toEqual(['The The']);
    expect(strong('So Then')).toEqual(['So Then']);
  });

  it('dedupes by key; the first display wins', () => {
    expect(strong("Alice met ALICE and Alice's dog")).toEqual(['Alice']);
  });

  it('keeps at most 12 strong candidates', () => {
    const names = Array.from({ length: 15 }, (_, i) => `Name${String.fromCharCode(97 + i)}x`);
    expect(strong(names.join(', '))).toEqual(names.slice(0, 12));
  });

  it('non-string or empty text gives nothing', () => {
    expect(extractCandidates('')).toEqual([]);
    expect(extractCandidates(undefined)).toEqual([]);
    expect(extractCandidates(42)).toEqual([]);
  });
});

describe('weak pass', () => {
  it('no match after letters, digits, apostrophes, @ or -; a token ends only before none of them', () => {
    expect(weak("9bob 1-bob 2'bob 3’bob zz@bob bob2x")).toEqual(['bob2x']);
    expect(weak('a-bob it’sok')).toEqual(['a-bob', 'it’sok']);
  });

  it('hyphenated lower-case tokens are one weak token', () => {
    expect(weak('ask alice-example')).toEqual(['ask', 'alice-example']);
  });

  it('skips stopwords, soft common words and repeats; strips possessives', () => {
    expect(weak("they meeting today alice's alice alice’s")).toEqual(['alice']);
  });

  it('a strong entry dropped by the filter does not shadow a weak token', () => {
    expect(extractCandidates('Today is today').map((c) => `${c.weak ? 'w' : 's'}:${c.display}`)).toEqual([]);
    expect(weak('Monday: monday')).toEqual([]);
    expect(weak('Thing here ships thing')).toEqual(['ships']);
    expect(weak('Zorp. zorp')).toEqual([]);
  });

  it('a dropped strong entry (over the cap) does not shadow its weak form', () => {
    const names = Array.from({ length: 13 }, (_, i) => `Name${String.fromCharCode(97 + i)}x`);
    const text = `${names.join(', ')} and namemx`;
    expect(weak(text)).toEqual(['namemx']);
  });

  it('emits at most 32 weak tokens', () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`);
    expect(weak(words.join(' '))).toEqual(words.slice(0, 32));
  });
});

describe('CJK pass', () => {
  it('runs of 2..4 are one gram; shorter runs nothing; shadowed by strong and earlier weak keys', () => {
    expect(weak('田 中')).toEqual([]);
    expect(weak('会議 会議')).toEqual(['会議']);
  });

  it('only runs when the text has a CJK character', () => {
    expect(extractCandidates('plain text only').some((c) => /[\u4E00-\u9FFF]/u.test(c.display))).toBe(false);
  });
});

describe('word lists', () => {
  it('hold exactly the spec words', () => {
    expect(HARD_STOPWORDS.size).toBe(107);
    expect(SOFT_COMMON_WORDS.size).toBe(57);
    expect(HARD_STOPWORDS.has('may')).toBe(true);
    expect(SOFT_COMMON_WORDS.has('may')).toBe(true);
    for (const w of ["i'm", "let's", 'lets', 'whose', 'being']) expect(HARD_STOPWORDS.has(w)).toBe(true);
    for (const w of ['sunday', 'december', 'anything', 'tonight']) expect(SOFT_COMMON_WORDS.has(w)).toBe(true);
  });
});
