/**
 * Tells, one fragment at a time and in linear total time, whether a streamed JSON object or array
 * has closed. A closed value cannot grow any further, which is what lets the stream assembler hand a
 * tool call on while other tool calls are still arriving.
 *
 * Only objects and arrays can be recognised as closed: a bare scalar (or nothing at all) stays open
 * until the stream says otherwise.
 */
export class JsonCompleteness {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private state: 'empty' | 'open' | 'closed' | 'unknown' = 'empty';

  get isClosed(): boolean {
    return this.state === 'closed';
  }

  feed(fragment: string): void {
    for (const char of fragment) {
      switch (this.state) {
        case 'empty':
          if (char === '{' || char === '[') {
            this.state = 'open';
            this.depth = 1;
          } else if (!isWhitespace(char)) {
            this.state = 'unknown';
          }
          break;
        case 'open':
          this.step(char);
          break;
        case 'closed':
          if (!isWhitespace(char)) this.state = 'unknown';
          break;
        case 'unknown':
          return;
      }
    }
  }

  private step(char: string): void {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (char === '\\') this.escaped = true;
      else if (char === '"') this.inString = false;
      return;
    }
    if (char === '"') this.inString = true;
    else if (char === '{' || char === '[') this.depth++;
    else if (char === '}' || char === ']') {
      this.depth--;
      if (this.depth === 0) this.state = 'closed';
    }
  }
}

function isWhitespace(char: string): boolean {
  return char === ' ' || char === '\n' || char === '\r' || char === '\t';
}
