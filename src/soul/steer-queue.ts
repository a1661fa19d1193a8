import type { ContentPart } from '../kosong/message.js';

export type UserInput = string | ContentPart[];

/** Input the user adds while a turn runs; consumed first-in first-out after each step. */
export class SteerQueue {
  private items: UserInput[] = [];

  push(input: UserInput): void {
    this.items.push(input);
  }

  /** Takes every queued input. */
  drain(): UserInput[] {
    const taken = this.items;
    this.items = [];
    return taken;
  }

  get size(): number {
    return this.items.length;
  }
}
