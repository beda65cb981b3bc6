import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** Work to do once the approval has committed (e.g. deleting objects no row points at any more). */
export type AfterApproval = () => Promise<void>;

/**
 * A step of approving an asset that another area owns (approving a pending file, say). It runs inside
 * the approval transaction, after the asset row is locked, and may return work for after the commit.
 */
export type ApprovalStep = (manager: EntityManager, assetId: number) => Promise<AfterApproval | undefined>;

/** Where other areas add their steps to the approval of an asset, without @dam/assets knowing them. */
@Injectable()
export class AssetApprovalSteps {
  private readonly steps: ApprovalStep[] = [];

  register(step: ApprovalStep): void {
    this.steps.push(step);
  }

  async run(manager: EntityManager, assetId: number): Promise<AfterApproval[]> {
    const after: AfterApproval[] = [];
    for (const step of this.steps) {
      const next = await step(manager, assetId);
      if (next !== undefined) after.push(next);
    }
    return after;
  }
}
