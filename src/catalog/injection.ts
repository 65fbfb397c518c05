// Known prompt-injection patterns in server-supplied text, found as spans: tag blocks such as
// <IMPORTANT>…</IMPORTANT>, and sentences that ask the model to ignore its instructions, hide things
// from the user, read or send credentials, or call other tools. Pure; every regex runs in linear time.

export interface InjectionHit {
  start: number;
  end: number;
  /** Short reason, e.g. `<IMPORTANT> block`, `asks to read ~/.ssh`. */
  label: string;
  /** A bounded quote of the flagged text (see quote()). */
  excerpt: string;
}

/** Tag names that mark "instructions for the model" blocks in poisoned descriptions. */
const TAG_NAMES = 'important|system[_-]?(?:prompt|message|reminder)?|instructions?|secret|hidden|admin|critical|urgent|override';
const OPEN_TAG = new RegExp(`<\\s*(${TAG_NAMES})(?:\\s[^<>]*)?>`, 'gi');
const CLOSE_TAG = new RegExp(`<\\s*/\\s*(${TAG_NAMES})\\s*>`, 'gi');

/** Phrase rules: a match flags the whole sentence around it. `\s+` keeps them whitespace-tolerant. */
const PHRASES: { re: RegExp; why: string }[] = [
  {
    why: 'asks to ignore previous instructions',
    re: /\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|every)\s+)?(?:(?:of\s+)?(?:the|your|my|these|those)\s+)?(?:previous|prior|above|earlier|preceding|former|original|system|other|existing)\s+(?:\w+\s+)?(?:instructions?|prompts?|rules|directions|directives|guidelines|guidance|messages|context|constraints)\b/gi,
  },
  {
    why: 'asks to disregard instructions',
    re: /\bdisregard\s+(?:all|any|everything|anything|your|previous|prior|above|earlier|safety|the\s+(?:above|previous|prior|system|rules))\b/gi,
  },
  { why: 'announces new instructions', re: /\b(?:new|updated|real|actual|true)\s+(?:system\s+)?instructions?\s*:/gi },
  {
    why: 'asks to keep something from the user',
    re: /\b(?:do\s+not|don['’]?t|never|must\s+not|should\s+not|shall\s+not)\s+(?:tell|mention|inform|notify|alert|reveal|disclose|show|say|explain|report|let)\b[^.!?\n]{0,40}?\b(?:the\s+)?users?\b/gi,
  },
  {
    why: 'asks to act without telling the user',
    re: /\bwithout\s+(?:telling|informing|notifying|alerting|asking|letting|warning)\s+(?:the\s+)?users?\b/gi,
  },
  {
    why: 'asks to keep something from the user',
    re: /\b(?:the\s+)?users?\s+(?:must|should|shall|may|will|need)\s*(?:not|never|n['’]?t)\s+(?:know|find\s+out|learn|notice|see|be\s+(?:told|informed|aware|notified))\b/gi,
  },
  {
    why: 'asks to keep something from the user',
    re: /\b(?:hide|conceal|keep)\s+(?:this|it|that|these|everything)\b[^.!?\n]{0,30}?\bfrom\s+(?:the\s+)?users?\b/gi,
  },
  {
    why: 'asks to call another tool first',
    re: /\bbefore\s+(?:using|calling|invoking|running)\s+(?:this|the|any|that)\s+(?:\w+\s+)?tools?\s*,?\s*(?:(?:you|the\s+(?:assistant|model|ai|agent))\s+(?:must|should|need\s+to|have\s+to)\s+)?(?:(?:first|always|also)\s+)?(?:call|use|invoke|run|execute|read|send|fetch|pass|get)\b/gi,
  },
  {
    why: 'asks to call other tools',
    re: /\byou\s+(?:must|should|have\s+to|need\s+to)\s+(?:first|also|always)\s+(?:call|use|invoke|run|execute)\b/gi,
  },
];

/**
 * Every phrase rule needs one of these words and a blank between two words, and every tag rule
 * a `<`: text without them skips those rules (most strings of a structured result are ids and names).
 */
const PHRASE_HINT = /ignore|disregard|forget|override|bypass|instruction|user|tool|you/i;

/** Credential files by path or name: specific enough to flag even in names and enum values. */
const SECRET_FILE =
  /~\/\.ssh\b|\.ssh\/|\bid[_\s-]?(?:rsa|dsa|ecdsa|ed25519)\b|(?<![\w$])\.env\b|\bmcp\.json\b|\bclaude_desktop_config\.json\b|~\/\.aws\b|\.aws\/credentials\b|~\/\.cursor\b|\.cursor\/|\.git-credentials\b|(?<![\w$])\.netrc\b|(?<![\w$])\.npmrc\b|(?<![\w$])\.pgpass\b|\/etc\/(?:passwd|shadow)\b|~\/\.kube\b|~\/\.docker\/config\.json\b|~\/\.gnupg\b/i;
/** Credentials and config files; flagged when the same sentence asks to read or send something. */
const SECRET_TERM = new RegExp(SECRET_FILE.source + String.raw`|\b(?:private|secret|api|ssh)[\s_-]*keys?\b|\baccess[\s_-]*tokens?\b|\bcredentials?\s+files?\b`, 'i');
const READ_VERB = /\b(?:read|reads|reading|cat|open|opens|opening|dump|dumps|extract|extracts|contents?\s+of)\b/i;
const SEND_VERB =
  /\b(?:send|sends|sending|pass|passes|passing|include|includes|including|attach|attaches|attaching|upload|uploads|uploading|copy|copies|copying|share|shares|sharing|forward|forwards|forwarding|paste|pastes|pasting|append|appends|appending|exfiltrate|exfiltrating|leak|leaks|leaking|post|posts|posting|transmit|transmits|transmitting|submit|submits|submitting|embed|embeds|embedding|insert|inserts|inserting|steal|steals|stealing)\b/i;

/** Sentence ends: terminal punctuation (plus closing quotes/brackets) before whitespace or the end, or a newline. */
const BOUNDARY = /[.!?]+["'’”)\]]*(?:\s+|$)|\n\s*/g;

/** Sentences as [start, end) pairs, each including its trailing whitespace; they tile the text. */
function sentences(text: string): { starts: number[]; ends: number[] } {
  const starts = [0];
  const ends: number[] = [];
  eachMatch(BOUNDARY, text, (m) => {
    const end = m.index + m[0].length;
    if (end <= starts[starts.length - 1]!) return;
    ends.push(end);
    starts.push(end);
  });
  if (starts[starts.length - 1]! < text.length) ends.push(text.length);
  else starts.pop();
  return { starts, ends };
}

/** Index of the sentence containing position `pos` (binary search over starts). */
function sentenceAt(starts: number[], pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const INVISIBLE_OR_CONTROL = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}\u{E0000}-\u{E007F}]/u;

/** `\u{E0041}` for a character nobody can see; everything else as it is. */
export function escapeInvisible(s: string): string {
  return s.replace(/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}\u{E0000}-\u{E007F}]/gu, (ch) => (ch === '\n' || ch === '\t' ? ch : `\\u{${ch.codePointAt(0)!.toString(16).toUpperCase()}}`));
}

/**
 * A bounded, readable quote for audit messages: at most `max` characters, whitespace collapsed,
 * invisible characters as \u{…}, so a finding never carries a large or hidden payload.
 */
export function quote(s: string, max = 60): string {
  let out = '';
  for (const ch of s) {
    const hidden = ch !== '\n' && ch !== '\t' && INVISIBLE_OR_CONTROL.test(ch);
    const piece = hidden ? `\\u{${ch.codePointAt(0)!.toString(16).toUpperCase()}}` : /\s/.test(ch) ? ' ' : ch;
    if (piece === ' ' && out.endsWith(' ')) continue;
    if (out.length + piece.length > max) return `"${out}…"`;
    out += piece;
  }
  return `"${out}"`;
}

export interface FindOptions {
  /**
   * The text is a name (tool, property, enum value): the credential rule needs a credential FILE,
   * since names such as `read_private_key` or `rotate-api-key` say what a legitimate tool does.
   */
  identifier?: boolean;
}

/** Every injection pattern in `text`, in order of position (hits may overlap). */
export function findInjections(text: string, options: FindOptions = {}): InjectionHit[] {
  const hits: InjectionHit[] = [];

  if (text.includes('<')) {
    // Tag blocks: from the opening tag to its closing tag, or to the end when it is never closed
    // (everything after an unclosed <IMPORTANT> is the model-directed payload).
    const blocks: [number, number][] = [];
    OPEN_TAG.lastIndex = 0;
    for (let m = OPEN_TAG.exec(text); m; m = OPEN_TAG.exec(text)) {
      const close = new RegExp(`<\\s*/\\s*${m[1]}\\s*>`, 'gi');
      close.lastIndex = OPEN_TAG.lastIndex;
      const c = close.exec(text);
      const end = c ? close.lastIndex : text.length;
      blocks.push([m.index, end]);
      hits.push({ start: m.index, end: withTrailingBlanks(text, end), label: `<${m[1]}> block`, excerpt: quote(text.slice(m.index, end)) });
      if (!c) break;
      OPEN_TAG.lastIndex = end;
    }
    // A closing tag without its opening one still marks model-directed text (e.g. the opening was cut).
    let b = 0; // blocks are sorted and disjoint, closing tags come in order: one linear sweep
    eachMatch(CLOSE_TAG, text, (m) => {
      while (b < blocks.length && blocks[b]![1] <= m.index) b++;
      if (b < blocks.length && blocks[b]![0] <= m.index) return;
      const end = m.index + m[0].length;
      hits.push({ start: m.index, end: withTrailingBlanks(text, end), label: `stray </${m[1]}> tag`, excerpt: quote(m[0]) });
    });
  }

  let bounds: ReturnType<typeof sentences> | undefined;
  const sentenceSpan = (start: number, end: number): [number, number] => {
    bounds ??= sentences(text);
    const first = sentenceAt(bounds.starts, start);
    const last = sentenceAt(bounds.starts, Math.max(start, end - 1));
    return [bounds.starts[first]!, bounds.ends[last]!];
  };

  if (PHRASE_HINT.test(text) && /\s/.test(text)) {
    for (const { re, why } of PHRASES) {
      eachMatch(re, text, (m) => {
        const [start, end] = sentenceSpan(m.index, m.index + m[0].length);
        hits.push({ start, end, label: why, excerpt: quote(text.slice(start, end)) });
      });
    }
  }

  // Credentials: a sensitive term plus a read/send verb in the same sentence.
  const secret = options.identifier ? SECRET_FILE : SECRET_TERM;
  if (secret.test(text)) {
    bounds ??= sentences(text);
    bounds.starts.forEach((start, i) => {
      const sentence = text.slice(start, bounds!.ends[i]);
      const term = secret.exec(sentence);
      if (!term) return;
      const verb = READ_VERB.test(sentence) ? 'read' : SEND_VERB.test(sentence) ? 'send' : undefined;
      if (!verb) return;
      hits.push({ start, end: bounds!.ends[i]!, label: `asks to ${verb} ${term[0].replace(/\s+/g, ' ')}`, excerpt: quote(sentence) });
    });
  }
  return hits.sort((a, b) => a.start - b.start || a.end - b.end);
}

/**
 * Every match of a global regex, without the copy of the regex that `matchAll` makes (this runs for
 * every string of every cleaned result). `fn` must not use `re` itself.
 */
export function eachMatch(re: RegExp, text: string, fn: (m: RegExpExecArray) => void): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0] === '') re.lastIndex++;
    fn(m);
  }
  re.lastIndex = 0;
}

/** Extends a span over the spaces and tabs after it, so that stripping leaves no double blank. */
function withTrailingBlanks(text: string, end: number): number {
  while (end < text.length && (text[end] === ' ' || text[end] === '\t')) end++;
  return end;
}

/** `text` without the (possibly overlapping) spans. */
export function removeSpans(text: string, spans: readonly { start: number; end: number }[]): string {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const { start, end } of sorted) {
    if (start > at) out += text.slice(at, start);
    at = Math.max(at, end);
  }
  return out + text.slice(at);
}
