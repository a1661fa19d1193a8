import type { Redis } from 'ioredis';
import type { QuestionRequest } from '../wire/requests.js';
import { recordPendingQuestion, takeQuestionAnswer } from './parked-questions.js';

/**
 * What a fleet turn does with a question (AskUserQuestion) when its job asks instead of dismissing:
 * the answer given while the turn was parked for it (used once), or park, as for an approval: the
 * question is recorded and `park` stops the turn before the step that asked commits. The first
 * question that parks is kept in `parked`.
 */
export class QuestionGate {
  parked: QuestionRequest['payload'] | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly sessionId: string,
    private readonly jobId: string,
    private readonly park: () => void,
  ) {}

  async handle(request: QuestionRequest): Promise<void> {
    const answers = await takeQuestionAnswer(this.redis, this.sessionId, request.payload);
    if (answers !== null) {
      request.resolve(answers);
      return;
    }
    if (this.parked !== null) return;
    this.parked = request.payload;
    await recordPendingQuestion(this.redis, this.sessionId, this.jobId, request.payload);
    this.park();
  }
}
