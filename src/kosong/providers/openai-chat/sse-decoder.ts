import { ChatProviderError } from '../../errors.js';

/** One server-sent event: its `event` field (null when none was sent) and its data lines joined. */
export interface ServerSentEvent {
  event: string | null;
  data: string;
}

/**
 * The most characters one event may take (its lines together). A stream chunk is a small delta; a
 * server that sends one line without end would otherwise be held in memory until the process died.
 */
export const MAX_EVENT_CHARS = 16 * 1024 * 1024;

/**
 * What a data line counts toward MAX_EVENT_CHARS besides its characters: each is held as its own
 * string (and a slot of the event's array) until the event ends, so millions of empty or two-character
 * lines took fifteen times the bound in memory. A stream chunk is one line; this costs it nothing.
 */
const DATA_LINE_CHARS = 32;

/**
 * Server-sent events out of text as it arrives, cut anywhere (the event-stream format of the HTML
 * standard, as the OpenAI SDK reads it): lines end in `\r\n`, `\n` or `\r`; `data` lines of one
 * event are joined with `\n`; a line starting with `:` is a comment; an empty line ends an event.
 * An event the stream ends in the middle of (no empty line after it) is not dispatched. Each
 * character is looked at a bounded number of times, however the text is cut.
 */
export class SseDecoder {
  private pending = '';
  private event: string | null = null;
  private data: string[] = [];
  /** Characters of the data lines of the event being read. */
  private dataChars = 0;

  constructor(private readonly maxEventChars = MAX_EVENT_CHARS) {}

  /** The events completed by `text`. */
  push(text: string): ServerSentEvent[] {
    if (text.indexOf('\n') === -1 && text.indexOf('\r') === -1) {
      // The middle of a line: kept as it is, not scanned again.
      this.check(this.pending.length + text.length);
      this.pending += text;
      return [];
    }
    const buffer = this.pending + text;
    const events: ServerSentEvent[] = [];
    let start = 0;
    // The next `\r` and `\n` at or after `start`; -1 once there is none.
    let cr = buffer.indexOf('\r');
    let lf = buffer.indexOf('\n');
    for (;;) {
      if (cr !== -1 && cr < start) cr = buffer.indexOf('\r', start);
      if (lf !== -1 && lf < start) lf = buffer.indexOf('\n', start);
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        // A `\r` at the end of what came so far may be the first half of `\r\n`: wait for more.
        if (cr === buffer.length - 1) break;
        end = cr;
        next = buffer[cr + 1] === '\n' ? cr + 2 : cr + 1;
      } else if (lf !== -1) {
        end = lf;
        next = lf + 1;
      } else break;
      const event = this.line(buffer.slice(start, end));
      if (event !== null) events.push(event);
      start = next;
    }
    this.pending = buffer.slice(start);
    this.check(this.pending.length);
    return events;
  }

  /** The end of the stream: a `\r` it ended in was a line end after all. */
  finish(): ServerSentEvent[] {
    const pending = this.pending;
    this.pending = '';
    if (!pending.endsWith('\r')) return [];
    const event = this.line(pending.slice(0, -1));
    return event === null ? [] : [event];
  }

  /** Throws when the event being read, with `pendingChars` of a line still to come, is too large. */
  private check(pendingChars: number): void {
    if (this.dataChars + pendingChars > this.maxEventChars)
      throw new ChatProviderError(
        `The API sent a stream event of more than ${this.maxEventChars} characters; the answer was given up.`,
      );
  }

  private line(line: string): ServerSentEvent | null {
    if (line === '') {
      if (this.event === null && this.data.length === 0) return null;
      const event = { event: this.event, data: this.data.join('\n') };
      this.event = null;
      this.data = [];
      this.dataChars = 0;
      return event;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.data.push(value);
      this.dataChars += value.length + DATA_LINE_CHARS;
      this.check(0);
    } else if (field === 'event') this.event = value;
    return null;
  }
}
