import type { Redis } from 'ioredis';
import type { WireMessage } from '../wire/index.js';
import {
  ApprovalRequest,
  type QuestionAnswers,
  QuestionRequest,
  type QuestionRequestData,
} from '../wire/requests.js';
import { type AskedApproval, parkedApprovals } from './parked-approvals.js';
import { parkedQuestions } from './parked-questions.js';
import { ParkingGate } from './parked-requests.js';

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
  private readonly approvals: ParkingGate<AskedApproval, 'approve' | 'reject'>;
  private readonly questions: ParkingGate<QuestionRequestData, QuestionAnswers>;

  constructor(
    redis: Redis,
    sessionId: string,
    jobId: string,
    private readonly parksQuestions: boolean,
    park: () => void,
  ) {
    this.approvals = new ParkingGate(parkedApprovals, redis, sessionId, jobId, park);
    this.questions = new ParkingGate(parkedQuestions, redis, sessionId, jobId, park);
  }

  /** Takes a pending request of the turn's wire; `failed` when it could not be handled (Redis). */
  offer(message: WireMessage, failed: () => void): void {
    if (message instanceof ApprovalRequest && message.isPending)
      void this.approvals.handle(message.payload, (answer) => message.resolve(answer)).catch(failed);
    if (message instanceof QuestionRequest && message.isPending) {
      if (this.parksQuestions)
        void this.questions.handle(message.payload, (answers) => message.resolve(answers)).catch(failed);
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
    return this.approvals.parked !== null ? this.approvals.isAnswered() : this.questions.isAnswered();
  }
}
