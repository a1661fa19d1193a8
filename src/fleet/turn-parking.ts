import type { Redis } from 'ioredis';
import type { WireMessage } from '../wire/index.js';
import { ApprovalRequest, QuestionRequest } from '../wire/requests.js';
import { ApprovalGate } from './approval-gate.js';
import { isAnswered } from './parked-approvals.js';
import { isQuestionAnswered } from './parked-questions.js';
import { QuestionGate } from './question-gate.js';

/** What a parked turn waits for, as its stream's `parked` entry says it (`task`: a WaitFor's). */
export interface ParkedWait {
  waits: 'approval' | 'question' | 'task';
  action: string;
  description: string;
}

/**
 * The requests of a fleet turn that only a person can answer, and whether one parked the turn:
 * approvals (when the job asks) and questions (when the job asks; otherwise the worker is afk for
 * the turn, the tool says nobody is there, and a question that reaches the wire all the same is
 * dismissed, as in print mode).
 */
export class TurnParking {
  private readonly approvals: ApprovalGate;
  private readonly questions: QuestionGate;

  constructor(
    private readonly redis: Redis,
    private readonly sessionId: string,
    jobId: string,
    private readonly parksQuestions: boolean,
    park: () => void,
  ) {
    this.approvals = new ApprovalGate(redis, sessionId, jobId, park);
    this.questions = new QuestionGate(redis, sessionId, jobId, park);
  }

  /** Takes a pending request of the turn's wire; `failed` when it could not be handled (Redis). */
  offer(message: WireMessage, failed: () => void): void {
    if (message instanceof ApprovalRequest && message.isPending)
      void this.approvals.handle(message).catch(failed);
    if (message instanceof QuestionRequest && message.isPending) {
      if (this.parksQuestions) void this.questions.handle(message).catch(failed);
      else message.resolve({});
    }
  }

  /** The first request that parked the turn, or null. */
  get parked(): ParkedWait | null {
    const approval = this.approvals.parked;
    if (approval !== null)
      return { waits: 'approval', action: approval.action, description: approval.description };
    const question = this.questions.parked;
    if (question !== null)
      return {
        waits: 'question',
        action: 'AskUserQuestion',
        description: question.questions.map((item) => item.question).join(' / '),
      };
    return null;
  }

  /** Whether what parked the turn was answered already (before the job was parked). */
  async isAnswered(): Promise<boolean> {
    const approval = this.approvals.parked;
    if (approval !== null) return isAnswered(this.redis, this.sessionId, approval);
    const question = this.questions.parked;
    return question !== null && isQuestionAnswered(this.redis, this.sessionId, question);
  }
}
