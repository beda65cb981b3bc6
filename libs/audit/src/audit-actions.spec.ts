import { DomainEvent } from '@dam/events';
import { AUDITED_EVENTS, auditedEvent } from './audit-actions';

class Probe extends DomainEvent<Record<string, unknown>> {
  constructor(
    readonly type: string,
    data: Record<string, unknown>,
  ) {
    super(data);
  }
}

describe('auditedEvent', () => {
  it('keeps a listed event with its target and actor, under its action name', () => {
    expect(auditedEvent(new Probe('asset.content-replaced', { assetId: 4, actorId: 2 }))).toEqual({
      action: 'asset.content.replaced',
      targetType: 'assets',
      targetId: 4,
      actorUserId: 2,
    });
    expect(auditedEvent(new Probe('webhook.updated', { webhookId: 7, actorId: null }))).toMatchObject({
      targetType: 'admin/webhooks',
      targetId: 7,
      actorUserId: null,
    });
  });

  it('keeps a failed login of an unknown user without a target, and ignores unlisted events', () => {
    expect(auditedEvent(new Probe('login.failed', { userId: null, actorId: null }))).toMatchObject({
      targetId: null,
    });
    expect(auditedEvent(new Probe('lightbox.created', { lightboxId: 1 }))).toBeUndefined();
    expect(auditedEvent(new Probe('asset.updated', {}))).toBeUndefined();
  });

  it('lists every action of DESIGN §12 "Audit" but shares (their owner adds them)', () => {
    for (const type of [
      'asset.downloaded',
      'login.failed',
      'user.updated',
      'group.updated',
      'category.created',
    ])
      expect(AUDITED_EVENTS[type]).toBeDefined();
    expect(AUDITED_EVENTS['access-level.deleted']).toBeDefined();
  });
});
