/**
 * JSON as a stream of tokens: stream-json's tokenizer (its `Parser`), used
 * as a function rather than as a stream. A big line's bytes already come as
 * chunks (source/lines.ts `BigLine`), and a stream in between would cost a
 * tick and an object queue per token; so each chunk goes straight to the
 * parser's transform step, and its `push` (where a Transform hands out
 * what it made) is this tokenizer's handler, called at once for each token.
 * json-tokens.test.ts pins the behaviour relied on here (the token names,
 * strings in chunks, errors through the callback), so that a stream-json
 * that changed it fails a test rather than a slog.
 *
 * Keys and numbers come whole (`keyValue`, `numberValue` with the number's
 * text); strings in pieces of at most 256 characters (`startString`,
 * `stringChunk`..., `endString`), so that a string of 50 MB is never one
 * value; then `startObject`, `endObject`, `startArray`, `endArray`,
 * `trueValue`, `falseValue`, `nullValue`.
 */
import { createRequire } from 'node:module';

export interface JsonToken {
  name: string;
  value?: string;
}

/** The parser's transform-stream steps that are called here. */
interface TokenParser {
  push: (token: JsonToken) => boolean;
  _transform(chunk: Buffer | string, encoding: string, callback: (error?: Error | null) => void): void;
  _flush(callback: (error?: Error | null) => void): void;
}

type ParserClass = new (options: Record<string, unknown>) => TokenParser;

const require = createRequire(import.meta.url);
/** Loaded when the first big line comes (most runs have none: start-up does not pay for it). */
let Parser: ParserClass | undefined;

const OPTIONS = { packKeys: true, packStrings: false, packNumbers: true, streamKeys: false, streamNumbers: false };

/** The input is not JSON: stream-json's reason. */
export class JsonTokenError extends Error {}

export class JsonTokens {
  private readonly parser: TokenParser;
  private error: Error | undefined;
  /** Where the bytes seen so far leave off: inside a string, just after its backslash. */
  private inString = false;
  private escaped = false;
  private readonly done = (error?: Error | null): void => {
    if (error) this.error = error;
  };

  constructor(onToken: (token: JsonToken) => void) {
    Parser ??= require('stream-json/Parser.js') as ParserClass;
    this.parser = new Parser(OPTIONS);
    this.parser.push = (token) => {
      onToken(token);
      return true;
    };
  }

  /** Tokenizes the next piece of the text (all Buffers, or all strings). Throws JsonTokenError. */
  write(chunk: Buffer | string): void {
    this.outsideStrings(chunk);
    this.parser._transform(chunk, typeof chunk === 'string' ? 'utf8' : 'buffer', this.done);
    if (this.error) throw new JsonTokenError(this.error.message);
  }

  /**
   * The parser takes any white space of JavaScript's `\s` between tokens
   * (\v, \f, a no-break space, a byte-order mark...), where JSON.parse takes
   * only space, tab and line ends: outside strings, any other control
   * character, and any character beyond ASCII, is no JSON.
   */
  private outsideStrings(chunk: Buffer | string): void {
    const text = typeof chunk === 'string';
    let inString = this.inString;
    let escaped = this.escaped;
    for (let i = 0; i < chunk.length; i += 1) {
      const c = text ? (chunk as string).charCodeAt(i) : (chunk as Buffer)[i] as number;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 92) escaped = true;
        else if (c === 34) inString = false;
      } else if (c === 34) {
        inString = true;
      } else if (c >= 0x80 || (c < 0x20 && c !== 9 && c !== 10 && c !== 13)) {
        throw new JsonTokenError(`Unexpected character ${c < 0x20 ? `0x${c.toString(16)}` : 'beyond ASCII'} between values`);
      }
    }
    this.inString = inString;
    this.escaped = escaped;
  }

  /** The text ended: the last tokens. Throws JsonTokenError when it is not one whole JSON value. */
  end(): void {
    this.parser._flush(this.done);
    if (this.error) throw new JsonTokenError(this.error.message);
  }
}
