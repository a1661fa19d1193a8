import { type Component, wrapTextWithAnsi } from '@mariozechner/pi-tui';

/** A few lines of already styled (and sanitised) text, wrapped to the width. */
export class NoteView implements Component {
  constructor(private text: string) {}

  setText(text: string): void {
    this.text = text;
  }

  render(width: number): string[] {
    return this.text.split('\n').flatMap((line) => (line ? wrapTextWithAnsi(line, width) : ['']));
  }

  invalidate(): void {}
}
