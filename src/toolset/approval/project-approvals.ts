import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../util/atomic-file.js';
import { builtOnFirstUse } from '../../util/built-on-first-use.js';
import { type ApprovalScope, ApprovalScopeSet } from './approval-scope.js';

/** Built on first use: a project with no kept approvals has no file to read. */
const fileSchema = builtOnFirstUse(() =>
  z.object({
    version: z.literal(1),
    approvals: z.array(
      z.discriminatedUnion('scope', [
        z.object({ scope: z.literal('action'), action: z.string() }),
        z.object({ scope: z.literal('exact'), action: z.string(), description: z.string() }),
      ]),
    ),
  }),
);

/**
 * Approvals the user chose to keep for a project, in a JSON file at a path the caller picks (under
 * the app's own data folder, never inside the user's repository). Writes replace the file
 * atomically, so a crash leaves either the old or the new list.
 */
export class ProjectApprovals {
  /** Saves run one after another, so a slow earlier save never overwrites a later list. */
  private saving: Promise<void> = Promise.resolve();

  private constructor(
    readonly path: string,
    private readonly scopes: ApprovalScopeSet,
  ) {}

  /** Reads the file; a missing file is an empty list, a malformed one an error naming the file. */
  static async load(path: string): Promise<ProjectApprovals> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return new ProjectApprovals(path, new ApprovalScopeSet());
      throw error;
    }
    let parsed: z.output<ReturnType<typeof fileSchema>>;
    try {
      parsed = fileSchema().parse(JSON.parse(text));
    } catch (error) {
      const detail = error instanceof z.ZodError ? z.prettifyError(error) : (error as Error).message;
      throw new Error(`Invalid project approvals file ${path}: ${detail}`);
    }
    return new ProjectApprovals(path, new ApprovalScopeSet(parsed.approvals));
  }

  covers(action: string, description: string): boolean {
    return this.scopes.covers(action, description);
  }

  list(): ApprovalScope[] {
    return this.scopes.toList();
  }

  /** Adds a scope and saves the file (no write if it was already covered). */
  async add(scope: ApprovalScope): Promise<void> {
    if (!this.scopes.add(scope)) return;
    const save = this.saving.then(() => this.save());
    this.saving = save.catch(() => {});
    await save;
  }

  private async save(): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    await writeFileAtomic(
      this.path,
      `${JSON.stringify({ version: 1, approvals: this.scopes.toList() }, null, 2)}\n`,
    );
  }
}
